"""An independent model of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp), enough to turn a
sequence of allocations and frees into reserved bytes and segment counts for the golden references. Written from
the C++ source, not from DeviceScope's allocator, so the two can check each other:
- round_size: at least kMinBlockSize (512), else a multiple of 512;
- pools: small for sizes <= kSmallSize (1 MiB), large otherwise;
- a new segment (cudaMalloc) is kSmallBuffer (2 MiB) for the small pool, kLargeBuffer (20 MiB) for sizes below
  kMinLargeAlloc (10 MiB), else the size rounded up to kRoundLarge (2 MiB);
- best fit among free blocks of the pool (smallest size, then lowest address);
- a block is split when the rest is >= kMinBlockSize (small pool) or > kSmallSize (large pool);
- a freed block merges with free neighbours of its segment. One stream, no empty_cache, no max_split_size.
"""
import bisect

K_MIN_BLOCK = 512
K_SMALL_SIZE = 1 << 20
K_SMALL_BUFFER = 2 << 20
K_LARGE_BUFFER = 20 << 20
K_MIN_LARGE_ALLOC = 10 << 20
K_ROUND_LARGE = 2 << 20


def round_size(size):
    return K_MIN_BLOCK if size < K_MIN_BLOCK else (size + K_MIN_BLOCK - 1) // K_MIN_BLOCK * K_MIN_BLOCK


def segment_size(size):
    if size <= K_SMALL_SIZE:
        return K_SMALL_BUFFER
    if size < K_MIN_LARGE_ALLOC:
        return K_LARGE_BUFFER
    return (size + K_ROUND_LARGE - 1) // K_ROUND_LARGE * K_ROUND_LARGE


class Block:
    __slots__ = ("segment", "addr", "size", "free", "prev", "next")

    def __init__(self, segment, addr, size):
        self.segment, self.addr, self.size, self.free = segment, addr, size, True
        self.prev = self.next = None


class CachingAllocatorModel:
    def __init__(self):
        self.pools = {True: [], False: []}  # small? -> sorted [(size, addr, Block)] of free blocks
        self.allocated = 0
        self.reserved = 0
        self.peak_allocated = 0
        self.peak_reserved = 0
        self.segments = 0
        self._next_addr = 0

    def _remove_free(self, block):
        pool = self.pools[block.segment[0]]
        pool.pop(bisect.bisect_left(pool, (block.size, block.addr)))

    def _add_free(self, block):
        block.free = True
        bisect.insort(self.pools[block.segment[0]], (block.size, block.addr, block))

    def malloc(self, size):
        """Allocates round_size(size); returns the block."""
        size = round_size(size)
        small = size <= K_SMALL_SIZE
        pool = self.pools[small]
        i = bisect.bisect_left(pool, (size, -1))
        if i < len(pool):
            block = pool.pop(i)[2]
        else:
            seg_bytes = segment_size(size)
            block = Block((small, self.segments), self._next_addr, seg_bytes)
            self._next_addr += seg_bytes
            self.segments += 1
            self.reserved += seg_bytes
            self.peak_reserved = max(self.peak_reserved, self.reserved)
        rest = block.size - size
        if (small and rest >= K_MIN_BLOCK) or (not small and rest > K_SMALL_SIZE):
            tail = Block(block.segment, block.addr + size, rest)
            tail.prev, tail.next = block, block.next
            if block.next:
                block.next.prev = tail
            block.next = tail
            block.size = size
            self._add_free(tail)
        block.free = False
        self.allocated += block.size
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        return block

    def free(self, block):
        self.allocated -= block.size
        for neighbour in (block.prev, block.next):
            if neighbour is not None and neighbour.free:
                self._remove_free(neighbour)
                if neighbour is block.prev:
                    neighbour.size += block.size
                    neighbour.next = block.next
                    if block.next:
                        block.next.prev = neighbour
                    block = neighbour
                else:
                    block.size += neighbour.size
                    block.next = neighbour.next
                    if neighbour.next:
                        neighbour.next.prev = block
        self._add_free(block)
