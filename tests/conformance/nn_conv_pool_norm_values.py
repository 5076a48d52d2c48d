# Values and gradients of convolution, pooling and normalization (the C++ kernels of issue 23) against real
# PyTorch: deterministic inputs, every option the kernels take (stride, padding, dilation, groups, 'same'
# with an even kernel, ceil_mode, count_include_pad, divisor_override, indices, adaptive windows, affine or
# not, training and evaluation). Values are printed at 5 significant digits (float64 inputs, so both sides
# round the same way); grad_fn names where 1.13 and 2.x agree.
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)


def det(*shape, phase=0.0):
    n = 1
    for s in shape:
        n *= s
    return torch.sin(torch.arange(n, dtype=torch.float64) * 0.731 + phase).reshape(shape)


def leaf(*shape, phase=0.0):
    return det(*shape, phase=phase).requires_grad_(True)


def show(name, t):
    print(name, tuple(t.shape), [float("%.5g" % v) for v in t.detach().flatten().tolist()])


def run(name, fn, *inputs):
    out = fn(*inputs)
    print(name, "grad_fn", type(out.grad_fn).__name__ if out.grad_fn is not None else None)
    show(name + " out", out)
    out.backward(torch.cos(torch.arange(out.numel(), dtype=out.dtype) * 0.37).reshape(out.shape))
    for i, t in enumerate(inputs):
        if isinstance(t, torch.Tensor) and t.requires_grad:
            show("{} grad{}".format(name, i), t.grad)


# convolution
run("conv2d", lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2),
    leaf(2, 4, 7, 6), leaf(6, 2, 3, 2, phase=1.0), leaf(6, phase=2.0))
run("conv2d_1x1", lambda x, w: F.conv2d(x, w), leaf(2, 3, 4, 5), leaf(4, 3, 1, 1, phase=0.5))
run("conv2d_same_even", lambda x, w, b: F.conv2d(x, w, b, padding="same"), leaf(1, 2, 5, 5), leaf(3, 2, 2, 4, phase=1.5),
    leaf(3, phase=0.1))
run("conv2d_unbatched", lambda x, w: F.conv2d(x, w, stride=2, padding=1), leaf(2, 6, 5), leaf(3, 2, 3, 3, phase=0.3))
run("conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=3, dilation=2, groups=3), leaf(2, 3, 11),
    leaf(6, 1, 3, phase=0.7), leaf(6, phase=0.2))
run("conv1d_valid", lambda x, w: F.conv1d(x, w, padding="valid"), leaf(3, 2, 6), leaf(2, 2, 4, phase=0.9))


# batches the kernels split into several products of a few samples each, the last one partial (37 = 9 x 4 + 1;
# 70 = 63 + 7 with padding and dilation), summarized; an infinite input (full-width columns are for finite
# inputs only)
def conv_summary(name, n, c, h, o, k, **kw):
    x, w, b = leaf(n, c, h, h), leaf(o, c, k, k, phase=1.0), leaf(o, phase=2.0)
    out = F.conv2d(x, w, b, **kw)
    out.backward(torch.cos(torch.arange(out.numel(), dtype=out.dtype) * 0.37).reshape(out.shape))
    print(name, tuple(out.shape), ["%.9g" % t.abs().sum().item() for t in (out, x.grad, w.grad, b.grad)])
    show(name + " last sample", out[-1, :2, :3, :3])
    show(name + " last grad", x.grad[-1, 0, :3, :3])


conv_summary("conv2d_chunks", 37, 6, 12, 16, 5)
conv_summary("conv2d_chunks_padded", 70, 3, 7, 8, 3, padding=2, dilation=2)
# strided: full-width columns over phase planes (stride 2 as the nn_tutorial's CNN, an odd size; stride 3 with
# dilation and a kernel taller than the stride)
conv_summary("conv2d_chunks_strided", 37, 4, 13, 6, 3, stride=2, padding=1)
conv_summary("conv2d_chunks_strided3", 21, 2, 11, 5, 4, stride=(3, 2), padding=(2, 1), dilation=(1, 2))
inf_in = det(2, 2, 5, 5)
inf_in[1, 0, 2, 4] = float("inf")
run("conv2d_inf", lambda x, w: F.conv2d(x, w, padding=1), inf_in.requires_grad_(True), leaf(3, 2, 3, 3, phase=0.5))
run("conv2d_inf_strided", lambda x, w: F.conv2d(x, w, stride=2, padding=1), inf_in.detach().requires_grad_(True),
    leaf(3, 2, 3, 3, phase=0.5))

# pooling
run("max_pool2d", lambda x: F.max_pool2d(x, 3, stride=2, padding=1, dilation=1, ceil_mode=True), leaf(2, 2, 7, 6))
run("max_pool2d_dil", lambda x: F.max_pool2d(x, (2, 3), stride=(1, 2), padding=(1, 1), dilation=(2, 1)), leaf(1, 3, 6, 7))
out, idx = F.max_pool2d(det(1, 2, 5, 5), 2, return_indices=True)
show("max_pool2d indices", idx)
run("max_pool1d", lambda x: F.max_pool1d(x, 3, stride=2, padding=1), leaf(2, 3, 9))
run("avg_pool2d", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True), leaf(2, 2, 7, 6))
run("avg_pool2d_nopad", lambda x: F.avg_pool2d(x, (3, 2), stride=(2, 2), padding=(1, 1), count_include_pad=False),
    leaf(1, 2, 6, 7))
run("avg_pool2d_div", lambda x: F.avg_pool2d(x, 2, divisor_override=3), leaf(2, 2, 4, 6))
run("avg_pool1d", lambda x: F.avg_pool1d(x, 3, stride=2, padding=1), leaf(2, 3, 9))
run("adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, (3, 2)), leaf(2, 3, 5, 7))
run("adaptive_avg_pool2d_none", lambda x: F.adaptive_avg_pool2d(x, (None, 4)), leaf(1, 2, 3, 9))
run("adaptive_avg_pool1d", lambda x: F.adaptive_avg_pool1d(x, 4), leaf(2, 3, 10))
run("adaptive_max_pool2d", lambda x: F.adaptive_max_pool2d(x, (2, 3)), leaf(2, 2, 5, 7))
out, idx = F.adaptive_max_pool2d(det(1, 2, 5, 7), (2, 3), return_indices=True)
show("adaptive_max_pool2d indices", idx)
run("adaptive_max_pool1d", lambda x: F.adaptive_max_pool1d(x, 3), leaf(2, 2, 8))
nan_in = det(1, 1, 4, 4)
nan_in[0, 0, 1, 2] = float("nan")
show("max_pool2d nan", F.max_pool2d(nan_in, 2))

# normalization
run("layer_norm", lambda x, w, b: F.layer_norm(x, (3, 4), w, b, eps=1e-5), leaf(2, 5, 3, 4), leaf(3, 4, phase=0.4),
    leaf(3, 4, phase=0.8))
run("layer_norm_plain", lambda x: F.layer_norm(x, (6,)), leaf(4, 6))
rm, rv = det(3, phase=0.2) * 0.1, det(3, phase=0.6).abs() + 0.5
run("batch_norm_train", lambda x, w, b: F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3, eps=1e-4),
    leaf(4, 3, 2, 5), leaf(3, phase=1.0), leaf(3, phase=2.0))
show("batch_norm running_mean", rm)
show("batch_norm running_var", rv)
run("batch_norm_2d", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), leaf(6, 3), leaf(3, phase=0.3),
    leaf(3, phase=0.9))
run("batch_norm_eval", lambda x, w, b: F.batch_norm(x, rm, rv, w, b, training=False, eps=1e-3), leaf(2, 3, 4),
    leaf(3, phase=1.1), leaf(3, phase=0.1))
run("group_norm", lambda x, w, b: F.group_norm(x, 2, w, b, eps=1e-5), leaf(2, 4, 3, 5), leaf(4, phase=0.3),
    leaf(4, phase=1.3))
run("group_norm_plain", lambda x: F.group_norm(x, 3), leaf(2, 6, 4))

# modules with float32 parameters (the default dtype's kernels)
torch.set_default_dtype(torch.float32)
x32 = det(2, 3, 6, 6).float().requires_grad_(True)
w32 = det(4, 3, 3, 3, phase=0.5).float().requires_grad_(True)
y32 = F.conv2d(x32, w32, padding=1)
y32.sum().backward()
print("conv2d float32", y32.dtype, round(y32.sum().item(), 3), round(x32.grad.abs().sum().item(), 3),
      round(w32.grad.abs().sum().item(), 3))

# pooling modules: reprs and outputs
import torch.nn as nn
for m in (nn.MaxPool1d(3, stride=2, padding=1), nn.MaxPool2d((2, 3), ceil_mode=True), nn.AvgPool1d(3, stride=2),
          nn.AvgPool2d(2, padding=1, count_include_pad=False), nn.AdaptiveAvgPool1d(4), nn.AdaptiveAvgPool2d((2, None)),
          nn.AdaptiveMaxPool1d(3), nn.AdaptiveMaxPool2d((2, 3), return_indices=True)):
    inp = det(2, 3, 9) if "1d" in type(m).__name__ else det(2, 3, 6, 7)
    out = m(inp)
    print(m)
    if isinstance(out, tuple):
        show("  indices", out[1])
        out = out[0]
    show("  out", out)

# errors a user can cause
for fn in (lambda: F.conv2d(det(1, 3, 5, 5), det(4, 2, 3, 3)),
           lambda: F.conv2d(det(1, 4, 5, 5), det(4, 2, 3, 3), groups=3),
           lambda: F.conv2d(det(1, 2, 2, 2), det(4, 2, 3, 3)),
           lambda: F.conv2d(det(1, 2, 5, 5), det(4, 2, 3, 3), bias=det(3)),
           lambda: F.conv2d(det(1, 2, 5, 5), det(4, 2, 3, 3), stride=2, padding="same"),
           lambda: F.max_pool2d(det(1, 1, 4, 4), 2, padding=2),
           lambda: F.max_pool2d(det(1, 1, 2, 2), 3),
           lambda: F.avg_pool2d(det(1, 1, 4, 4), 2, divisor_override=0),
           lambda: F.layer_norm(det(2, 3), (4,)),
           lambda: F.group_norm(det(2, 6, 3), 4),
           lambda: F.batch_norm(det(1, 3), None, None, training=True)):
    try:
        fn()
        print("no error")
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
