"""DeviceScope-only views of the engine for lessons and scripts (not PyTorch API; real PyTorch has no such module).

    import devicescope.engine as dse
    dse.backend()        -> {"name": "sim" | "cuda", "simulated": bool, "note": str}
    dse.transfers()      -> every recorded host/device copy so far, oldest first, as dicts with the columns of
                            the transfers CSV (the engine's kTransferFields): id, src, dst ("pageable",
                            "pinned", "cuda:N"), bytes, route ("direct", "staged-pinned", "peer"),
                            non_blocking (asked), async (the host really did not wait), stream_device, stream,
                            enqueue_ns, start_ns, end_ns, duration_ns, gbps (bytes / ns = GB/s; 0.0 while
                            incomplete), measured_ns, simulated, complete, src_storage, dst_storage, owner
    dse.last_transfer()  -> the newest of those (None when nothing was copied yet)
    dse.host_memory()    -> pinned host allocator: {"allocated", "reserved", "live_blocks", "cached_blocks"}

Only works inside DeviceScope (it reads the engine through the embedded `_devicescope_C` module).
"""

__all__ = ["backend", "is_simulated", "transfers", "last_transfer", "host_memory"]


def _c():
    try:
        import _devicescope_C
    except ImportError:
        raise RuntimeError("devicescope.engine works only inside DeviceScope (devicescope run / the app)") from None
    return _devicescope_C


def backend():
    c = _c()
    return {"name": c.backend_name(), "simulated": bool(c.backend_simulated()), "note": c.backend_note()}


def is_simulated():
    return bool(_c().backend_simulated())


def transfers():
    return _c().transfers()


def last_transfer():
    all_ = _c().transfers()
    return all_[-1] if all_ else None


def host_memory():
    return dict(_c().host_memory_stats())
