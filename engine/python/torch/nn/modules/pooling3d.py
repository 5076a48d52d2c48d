# MaxPool3d / AvgPool3d: PyTorch's pooling.py classes over F.max_pool3d / F.avg_pool3d.
from .. import functional as F
from .pooling import AvgPool2d, _MaxPoolNd

__all__ = ["AvgPool3d", "MaxPool3d"]


class MaxPool3d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool3d(AvgPool2d):
    # the same attributes and repr as AvgPool2d
    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

