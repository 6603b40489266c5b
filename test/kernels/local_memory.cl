// __local memory and barriers: reductions, scans, a tiled matrix multiply,
// barriers in loops, __local arguments and kernel-scope __local variables.
// Every kernel works for any work-group size unless it says otherwise.

// Linear ids that also hold in OpenCL C 1.2 (no get_local_linear_id).
size_t local_linear_id(void) {
  return get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
}
size_t group_linear_size(void) { return get_local_size(0) * get_local_size(1) * get_local_size(2); }

// Tree reduction of each work-group's elements (n of them in all; items past
// the end add nothing); sums[group] gets the group's total.
kernel void reduce_sum(global const uint *in, uint n, global uint *sums, local uint *scratch) {
  size_t lid = get_local_id(0), size = get_local_size(0), gid = get_global_id(0);
  scratch[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = 1; stride < size; stride *= 2) {
    if (lid % (2 * stride) == 0 && lid + stride < size)
      scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = scratch[0];
}

// Hillis-Steele scan of each work-group's elements, double-buffered in two
// __local arrays: inclusive and exclusive results.
kernel void scan_hillis_steele(global const uint *in, global uint *inclusive, global uint *exclusive, local uint *a,
                               local uint *b) {
  size_t lid = get_local_id(0), size = get_local_size(0), gid = get_global_id(0);
  uint own = in[gid];
  a[lid] = own;
  barrier(CLK_LOCAL_MEM_FENCE);
  local uint *from = a, *to = b;
  for (size_t offset = 1; offset < size; offset *= 2) {
    to[lid] = lid >= offset ? from[lid] + from[lid - offset] : from[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    local uint *swap = from;
    from = to;
    to = swap;
  }
  inclusive[gid] = from[lid];
  exclusive[gid] = from[lid] - own;
}

// Blelloch (work-efficient) exclusive scan of blocks of get_local_size(0)
// elements, which must be a power of two. Elements past n count as 0 and are
// not written. blockSums[group] gets the block's total when not NULL.
kernel void scan_blelloch(global uint *data, uint n, global uint *blockSums, local uint *tmp) {
  size_t lid = get_local_id(0), size = get_local_size(0), gid = get_global_id(0);
  tmp[lid] = gid < n ? data[gid] : 0;
  // Up-sweep.
  for (size_t stride = 1; stride < size; stride *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t index = (lid + 1) * 2 * stride - 1;
    if (index < size)
      tmp[index] += tmp[index - stride];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    if (blockSums)
      blockSums[get_group_id(0)] = tmp[size - 1];
    tmp[size - 1] = 0;
  }
  // Down-sweep.
  for (size_t stride = size / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t index = (lid + 1) * 2 * stride - 1;
    if (index < size) {
      uint left = tmp[index - stride];
      tmp[index - stride] = tmp[index];
      tmp[index] += left;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid < n)
    data[gid] = tmp[lid];
}

// Adds offsets[group] (the exclusive scan of the block sums) to the block.
kernel void add_block_offsets(global uint *data, uint n, global const uint *offsets) {
  // One work-item loads the offset for the whole group through __local.
  local uint offset;
  if (get_local_id(0) == 0)
    offset = offsets[get_group_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t gid = get_global_id(0);
  if (gid < n)
    data[gid] += offset;
}

#ifndef TILE
#define TILE 16
#endif

// C (m x n) = A (m x k) * B (k x n), row-major, with TILE x TILE work-groups;
// the global size is rounded up to whole tiles, so every access is checked.
kernel void matmul_tiled(global const float *A, global const float *B, global float *C, int m, int n, int k) {
  local float tileA[TILE][TILE];
  local float tileB[TILE][TILE];
  int col = get_global_id(0), row = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  float sum = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    tileA[ly][lx] = row < m && t + lx < k ? A[row * k + t + lx] : 0.0f;
    tileB[ly][lx] = t + ly < k && col < n ? B[(t + ly) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TILE; ++i)
      sum += tileA[ly][i] * tileB[i][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n)
    C[row * n + col] = sum;
}

// Barriers inside loops: each round every work-item publishes its value and
// takes its right-hand neighbour's, plus the round number; an inner loop with
// a barrier runs `inner` times per round; odd groups take an extra
// (group-uniform) branch with barriers of its own.
kernel void rotate_rounds(global uint *values, int rounds, int inner, local uint *ring) {
  size_t lid = get_local_id(0), size = get_local_size(0), gid = get_global_id(0);
  uint v = values[gid];
  for (int r = 0; r < rounds; ++r) {
    ring[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = ring[(lid + 1) % size] + (uint)r;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < inner; ++j) {
      if (lid == 0)
        ring[0] = (uint)j;
      barrier(CLK_LOCAL_MEM_FENCE);
      v += ring[0];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (get_group_id(0) % 2) {
    ring[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = ring[size - 1 - lid] * 2u;
  }
  values[gid] = v;
}

// Several __local arguments at once, of sizes the host chooses (in bytes:
// oneByte is 1, odd is oddSize). They must not overlap: every work-item fills
// its share of each region, then after a barrier checks all of it.
// out[gid] = number of bytes found wrong (0 when correct).
kernel void local_regions(local uchar *oneByte, local uchar *odd, uint oddSize, local uint *words, uint wordCount,
                          global uint *out) {
  size_t lid = get_local_id(0), size = get_local_size(0);
  uint group = (uint)get_group_id(0);
  if (lid == 0)
    oneByte[0] = (uchar)(0xA5 ^ group);
  for (size_t i = lid; i < oddSize; i += size)
    odd[i] = (uchar)(i * 7 + group);
  for (size_t i = lid; i < wordCount; i += size)
    words[i] = (uint)(i * 2654435761u) ^ group;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint wrong = oneByte[0] != (uchar)(0xA5 ^ group);
  for (size_t i = 0; i < oddSize; ++i)
    wrong += odd[i] != (uchar)(i * 7 + group);
  for (size_t i = 0; i < wordCount; ++i)
    wrong += words[i] != ((uint)(i * 2654435761u) ^ group);
  out[get_global_id(0)] = wrong;
}

// Fills a __local region of `bytes` bytes, then sums it back in reverse
// order after a barrier; out[group] gets the sum.
kernel void fill_local(local uchar *region, ulong bytes, global ulong *out) {
  size_t lid = get_local_id(0), size = get_local_size(0);
  for (ulong i = lid; i < bytes; i += size)
    region[i] = (uchar)(i * 31 + 7);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    ulong sum = 0;
    for (ulong i = bytes; i-- > 0;)
      sum += region[i] * (i % 13 + 1);
    out[get_group_id(0)] = sum;
  }
}

typedef struct {
  int a;
  short b;
} Pair;

// Kernel-scope __local variables of several types next to a __local argument.
// out gets, per work-group (8 values): combinations written by different
// work-items, read after a barrier, plus alignment checks.
kernel void mixed_locals(local int *arg, global long *out) {
  local char chars[3];
  local long longs[5];
  local float4 vectors[7];
  local Pair pairs[2];
  local ushort single;
  size_t lid = get_local_id(0), size = get_local_size(0);
  long group = (long)get_group_id(0);
  if (lid < 3)
    chars[lid] = (char)(lid + 1 + group);
  if (lid < 5)
    longs[lid] = ((long)lid << 40) + group;
  if (lid < 7)
    vectors[lid] = (float4)(lid, lid + 0.5f, -(float)lid, group);
  if (lid < 2) {
    pairs[lid].a = (int)(lid * 1000 + group);
    pairs[lid].b = (short)(-(int)lid - 1);
  }
  if (lid == size - 1)
    single = (ushort)(60000 + group);
  arg[lid] = (int)(lid * 3 + group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    long argSum = 0;
    for (size_t i = 0; i < size; ++i)
      argSum += arg[i];
    float4 vsum = 0.0f;
    for (int i = 0; i < 7; ++i)
      vsum += vectors[i];
    global long *o = out + 8 * group;
    o[0] = chars[0] + chars[1] * 100 + chars[2] * 10000;
    o[1] = longs[0] + longs[1] + longs[2] + longs[3] + longs[4];
    o[2] = (long)(vsum.x * 2) + (long)(vsum.y * 2) * 1000 + (long)(-vsum.z) * 1000000;
    o[3] = pairs[0].a + pairs[1].a * 10 + pairs[0].b * 100 + pairs[1].b * 1000;
    o[4] = single;
    o[5] = argSum;
    o[6] = ((size_t)vectors % 16) + ((size_t)longs % 8) * 100 + ((size_t)arg % 4) * 10000;
    o[7] = (long)vsum.w;
  }
}

// A static __local array only, for CL_KERNEL_LOCAL_MEM_SIZE.
kernel void static_only(global int *out) {
  local int table[100];
  table[get_local_id(0) % 100] = (int)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = table[(get_local_id(0) + 1) % 100];
}

// 1D/2D/3D work-groups: every work-item stores a value in __local memory at
// its local linear id, then reads its successor's (cyclically) and the
// mirrored item's after a barrier, and adds the group size; out is indexed by
// the global linear id. The group size comes from get_local_size, so
// non-uniform (remainder) groups are covered too.
kernel void exchange_nd(global uint *out, local uint *scratch) {
  size_t lin = local_linear_id(), size = group_linear_size();
  size_t gid = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
  scratch[lin] = (uint)(gid * 3 + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint value = scratch[(lin + 1) % size] * 2u + scratch[size - 1 - lin] + (uint)(size << 24);
  out[gid] = value;
}

// Pointers made from integers: each work-item stores through a __local
// pointer rebuilt from an integer address (its slot of `tile` rotated by
// 5), fills a private array through such pointers, then reads both back.
kernel void pointers_from_integers(global int *out, global const int *in) {
  local int tile[64];
  int mine[8];
  size_t lid = get_local_id(0);
  uintptr_t tileAddress = (uintptr_t)tile, mineAddress = (uintptr_t)mine;
  *(local int *)(tileAddress + ((lid * 5) % 64) * sizeof(int)) = in[get_global_id(0)];
  for (int i = 0; i < 8; ++i)
    *(int *)(mineAddress + i * sizeof(int)) = (int)lid * 10 + i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[lid] + *(int *)(mineAddress + (lid % 8) * sizeof(int));
}
