# ConvTranspose1d/2d/3d and Conv3d: PyTorch's conv.py classes over _ConvNd (conv.py here: parameter shapes,
# kaiming init, repr), with ConvTranspose's output_size -> output_padding computation in PyTorch's words.
from .. import functional as F
from .conv import _ConvNd
from .utils import _pair, _single, _triple

__all__ = ["Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"]


class Conv3d(_ConvNd):
    r"""Applies a 3D convolution over an input signal composed of several input planes."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        kernel_size_ = _triple(kernel_size)
        stride_ = _triple(stride)
        padding_ = padding if isinstance(padding, str) else _triple(padding)
        dilation_ = _triple(dilation)
        super().__init__(in_channels, out_channels, kernel_size_, stride_, padding_, dilation_,
                         False, _triple(0), groups, bias, padding_mode, device=device, dtype=dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            return F.conv3d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode),
                            weight, bias, self.stride, _triple(0), self.dilation, self.groups)
        return F.conv3d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(self.__class__.__name__))
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device=device, dtype=dtype)

    # dilation being an optional parameter is for backwards compatibility (PyTorch's comment)
    def _output_padding(self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None):
        if output_size is None:
            return _single(self.output_padding)  # converting to list if was not already
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError("ConvTranspose{}D: for {}D input, output_size must have {} or {} elements (got {})"
                             .format(num_spatial_dims, input.dim(), num_spatial_dims,
                                     num_non_spatial_dims + num_spatial_dims, len(output_size)))
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = ((input.size(d + num_non_spatial_dims) - 1) * stride[d] - 2 * padding[d]
                        + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1)
            min_sizes.append(dim_size)
            max_sizes.append(min_sizes[d] + stride[d] - 1)
        for i in range(len(output_size)):
            size, min_size, max_size = output_size[i], min_sizes[i], max_sizes[i]
            if size < min_size or size > max_size:
                raise ValueError("requested an output size of {}, but valid sizes range from {} to {} (for an "
                                 "input of {})".format(output_size, min_sizes, max_sizes, input.size()[2:]))
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]

    def _forward(self, input, output_size, nd, fn):
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose{}d".format(nd))
        assert isinstance(self.padding, tuple)
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size,
                                              nd, self.dilation)
        return fn(input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups,
                  self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    r"""Applies a 1D transposed convolution operator over an input image composed of several input planes."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride), _single(padding),
                         _single(dilation), True, _single(output_padding), groups, bias, padding_mode,
                         device=device, dtype=dtype)

    def forward(self, input, output_size=None):
        return self._forward(input, output_size, 1, F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    r"""Applies a 2D transposed convolution operator over an input image composed of several input planes."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), _pair(padding),
                         _pair(dilation), True, _pair(output_padding), groups, bias, padding_mode,
                         device=device, dtype=dtype)

    def forward(self, input, output_size=None):
        return self._forward(input, output_size, 2, F.conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    r"""Applies a 3D transposed convolution operator over an input image composed of several input planes."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, _triple(kernel_size), _triple(stride), _triple(padding),
                         _triple(dilation), True, _triple(output_padding), groups, bias, padding_mode,
                         device=device, dtype=dtype)

    def forward(self, input, output_size=None):
        return self._forward(input, output_size, 3, F.conv_transpose3d)
