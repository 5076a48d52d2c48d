# A minimal torch.UntypedStorage view of a tensor's storage (data_ptr, nbytes, device), enough for the
# identity checks user code does (`a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()`).


class UntypedStorage:
    def __init__(self, tensor):
        self._impl = tensor._impl
        self.device = tensor.device

    def data_ptr(self):
        # The storage start: element 0 of the tensor minus its offset.
        return self._impl.data_ptr - self._impl.offset * self._impl.nbytes // max(self._impl.numel, 1) \
            if self._impl.numel else self._impl.data_ptr

    def nbytes(self):
        return self._impl.storage_nbytes

    def size(self):
        return self._impl.storage_nbytes

    def element_size(self):
        return 1

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    def is_pinned(self):
        return self._impl.is_pinned

    def __len__(self):
        return self._impl.storage_nbytes

    def __repr__(self):
        return f"<DeviceScope storage #{self._impl.storage_id} of {self.nbytes()} bytes on {self.device}>"
