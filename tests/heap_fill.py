"""A heap made small after the fact, on the unix port: bench_build's
smallest heap is the room left once host_sim's chip models are built (built
in a heap merely made smaller, the models run out first: compiling their
sources takes far more than they keep).

Its own module, not the rig's: code added to app_script shifts the rig's
heap, and with it bench_app's figures, by a few hundred bytes.
"""
import gc


def leave_free(room, pieces=4096):
    """Fill the heap but `room` bytes (None: fill nothing), as if it were
    that small: -> the filler, to be kept referenced. The room is one block,
    as in a board's heap after boot (MemoryError where no block is so
    large): it is held while the rest is filled, then let go. The rest is
    filled in up to `pieces` pieces, largest first (halving the size where
    no free block is so large), down to one-block objects in the chip
    models' crumbs."""
    if room is None:
        return None
    filler = [None] * pieces
    gc.collect()
    hole = bytearray(room)
    n = 0
    size = 1 << 30
    while n < pieces:
        want = gc.mem_free()
        try:
            if size >= 64 and want >= 64:
                filler[n] = bytearray(min(size, want - 32))
            elif want > 0:
                filler[n] = (n,)            # one block of the allocator
            else:
                break
            n += 1
        except MemoryError:
            if size < 64:
                break
            size = min(size, want) // 2
    del hole                                # the room, let go
    gc.collect()
    return filler
