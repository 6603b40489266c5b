// Umbrella header for the Mux HAL.
#pragma once

#include "mux/command_buffer.h"
#include "mux/device.h"
#include "mux/device_info.h"
#include "mux/executable.h"
#include "mux/memory.h"
#include "mux/queue.h"
#include "mux/registry.h"
#include "mux/status.h"
#include "mux/target.h"
