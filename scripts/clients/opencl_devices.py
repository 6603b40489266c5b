#!/usr/bin/env python3
"""Lists the devices of one OpenCL platform, through the system's ICD loader.

    opencl_devices.py [PLATFORM_NAME]

PLATFORM_NAME defaults to "Polymux". Prints one line per device of the
first platform whose CL_PLATFORM_NAME is PLATFORM_NAME:

    <platform index> <TAB> <device index> <TAB> <device name>

and nothing when the loader finds no such platform or it has no device.
scripts/test-clients uses it to find Polymux's platform index for CLBlast's
`-platform N` instead of assuming one. Only the standard library (ctypes),
so it runs before any virtual environment exists.
"""

import ctypes
import ctypes.util
import sys

CL_SUCCESS = 0
CL_DEVICE_NOT_FOUND = -1
CL_PLATFORM_NAME = 0x0902
CL_DEVICE_TYPE_ALL = 0xFFFFFFFF
CL_DEVICE_NAME = 0x102B


def load_opencl():
    for name in ("libOpenCL.so.1", ctypes.util.find_library("OpenCL")):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                pass
    sys.exit("opencl_devices.py: no OpenCL ICD loader (libOpenCL.so.1)")


def info_string(getter, obj, param):
    size = ctypes.c_size_t()
    if getter(obj, param, 0, None, ctypes.byref(size)) != CL_SUCCESS:
        return ""
    buf = ctypes.create_string_buffer(size.value)
    if getter(obj, param, size, buf, None) != CL_SUCCESS:
        return ""
    return buf.value.decode(errors="replace")


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else "Polymux"
    cl = load_opencl()
    cl.clGetPlatformIDs.argtypes = [ctypes.c_uint32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
    cl.clGetPlatformInfo.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t, ctypes.c_void_p,
                                     ctypes.POINTER(ctypes.c_size_t)]
    cl.clGetDeviceIDs.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32, ctypes.c_void_p,
                                  ctypes.POINTER(ctypes.c_uint32)]
    cl.clGetDeviceInfo.argtypes = cl.clGetPlatformInfo.argtypes

    count = ctypes.c_uint32()
    # ocl-icd answers CL_PLATFORM_NOT_FOUND_KHR when it finds no platform.
    if cl.clGetPlatformIDs(0, None, ctypes.byref(count)) != CL_SUCCESS or count.value == 0:
        return
    platforms = (ctypes.c_void_p * count.value)()
    cl.clGetPlatformIDs(count.value, platforms, None)
    for p_index, platform in enumerate(platforms):
        if info_string(cl.clGetPlatformInfo, platform, CL_PLATFORM_NAME) != wanted:
            continue
        n = ctypes.c_uint32()
        err = cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, None, ctypes.byref(n))
        if err == CL_DEVICE_NOT_FOUND or n.value == 0:
            return
        devices = (ctypes.c_void_p * n.value)()
        cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n.value, devices, None)
        for d_index, device in enumerate(devices):
            name = info_string(cl.clGetDeviceInfo, device, CL_DEVICE_NAME)
            print(f"{p_index}\t{d_index}\t{name}")
        return


if __name__ == "__main__":
    main()
