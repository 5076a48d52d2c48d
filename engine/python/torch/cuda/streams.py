# torch.cuda.Stream / Event and the stream context: copies issued inside `with torch.cuda.stream(s):`
# are ordered on s (the engine's current stream of s's device). Event timings come from the backend's
# clock (modelled for simulated devices): an event happens when its stream's earlier copies end.
# Cross-stream waits (Stream.wait_event / wait_stream, Event.wait) are cudaStreamWaitEvent, as in
# PyTorch: only the GPU stream waits, the host returns at once (use synchronize() to block the host).
import _devicescope_C as _E


def _idx(device):
    from . import _index
    return _index(device, optional=False) if device is not None else _E.current_device()


class Stream:
    def __new__(cls, device=None, priority=0, **kwargs):
        from . import _lazy_init
        _lazy_init()
        self = object.__new__(cls)
        self._device = _idx(device)
        stream_id = kwargs.get("_stream_id")
        self._id = _E.create_stream(self._device) if stream_id is None else stream_id
        self.priority = priority
        return self

    def __init__(self, device=None, priority=0, **kwargs):
        pass

    @property
    def device(self):
        from .._device import device
        return device("cuda", self._device)

    @property
    def device_index(self):
        return self._device

    @property
    def cuda_stream(self):
        return self._id

    @property
    def stream_id(self):
        return self._id

    def query(self):
        return _E.stream_query(self._device, self._id)

    def synchronize(self):
        _E.stream_synchronize(self._device, self._id)

    def wait_event(self, event):
        """Work submitted to this stream later waits for `event`; returns without waiting (host)."""
        event.wait(self)

    def wait_stream(self, stream):
        """Work submitted to this stream later waits for the work queued on `stream` now; no host wait."""
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def __eq__(self, other):
        return isinstance(other, Stream) and other._device == self._device and other._id == self._id

    def __hash__(self):
        return hash((self._device, self._id))

    def __repr__(self):
        return f"<torch.cuda.Stream device=cuda:{self._device} cuda_stream={hex(self._id)}>"


def _stream(device, stream_id):
    return Stream(device=device, _stream_id=stream_id)


def current_stream(device=None):
    from . import _lazy_init
    _lazy_init()
    d = _idx(device)
    return _stream(d, _E.current_stream(d))


def default_stream(device=None):
    from . import _lazy_init
    _lazy_init()
    return _stream(_idx(device), 0)


def set_stream(stream):
    if stream is None:
        return
    _E.set_current_stream(stream._device, stream._id)


class StreamContext:
    """`with torch.cuda.stream(s):` - s becomes the current stream (and its device the current device)."""

    def __init__(self, stream):
        self.stream = stream
        self.prev_stream = None
        self.prev_device = None

    def __enter__(self):
        s = self.stream
        if s is None or _E.device_count() == 0:
            return self
        self.prev_device = _E.current_device()
        if s._device != self.prev_device:
            _E.set_device(s._device)
        self.prev_stream = _E.current_stream(s._device)
        _E.set_current_stream(s._device, s._id)
        return self

    def __exit__(self, *exc):
        s = self.stream
        if s is None or self.prev_stream is None:
            return False
        _E.set_current_stream(s._device, self.prev_stream)
        if self.prev_device != s._device:
            _E.set_device(self.prev_device)
        return False


def stream(stream):
    return StreamContext(stream)


class Event:
    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._record = None  # (device, id) of the engine event, once recorded

    def record(self, stream=None):
        if stream is None:
            stream = current_stream()
        previous, self._record = self._record, _E.record_event(stream._device, stream._id)
        if previous is not None:
            _E.forget_event(*previous)  # re-recorded: the old engine event has no user left

    def __del__(self):
        # cudaEventDestroy: a loop timing every step makes millions of events; the engine forgets each one
        # with its Event (an error at interpreter shutdown, when the engine may be gone, is of no interest).
        if getattr(self, "_record", None) is not None:
            try:
                _E.forget_event(*self._record)
            except Exception:
                pass

    def query(self):
        if self._record is None:
            return True
        return _E.event_query(self._record[0], self._record[1])

    def synchronize(self):
        if self._record is not None:
            _E.event_synchronize(self._record[0], self._record[1])

    def wait(self, stream=None):
        """Work submitted to `stream` (default: the current stream) later waits for this event.

        cudaStreamWaitEvent: the host does not wait. An event never recorded is a no-op, as in PyTorch.
        """
        if stream is None:
            stream = current_stream()
        if self._record is not None:
            _E.stream_wait_event(stream._device, stream._id, self._record[0], self._record[1])

    def _time(self):
        return _E.event_time_ns(self._record[0], self._record[1])

    def elapsed_time(self, end_event):
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if self._record is None or end_event._record is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        if not (self.query() and end_event.query()):
            raise RuntimeError("CUDA error: device not ready")
        return (end_event._time() - self._time()) / 1.0e6

    def __repr__(self):
        return "<torch.cuda.Event uninitialized>" if self._record is None else \
            f"<torch.cuda.Event {hex(self._record[1])}>"
