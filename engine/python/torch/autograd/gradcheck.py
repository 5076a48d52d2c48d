# torch.autograd.gradcheck / gradgradcheck's first half: the analytical Jacobian (one backward per output
# element) against central finite differences, PyTorch's defaults (eps=1e-6, atol=1e-5, rtol=1e-3) and its
# "Jacobian mismatch" message. Meant for small double-precision inputs, as in PyTorch.
import warnings


class GradcheckError(RuntimeError):
    pass


def _flat_inputs(inputs):
    from .._tensor import Tensor
    return (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)


def _outputs(func, inputs):
    from .._tensor import Tensor
    out = func(*inputs)
    return (out,) if isinstance(out, Tensor) else tuple(o for o in out if isinstance(o, Tensor))


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    import torch
    tupled = _flat_inputs(inputs)
    diff = [(i, t) for i, t in enumerate(tupled) if isinstance(t, torch.Tensor) and t.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i, t in diff:
        if t.dtype not in (torch.float64,):
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating "
                          "point or complex. ")
    outputs = _outputs(func, tupled)
    for oi, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        n_out = out.numel()
        for ii, x in diff:
            numerical = torch.zeros(x.numel(), n_out, dtype=torch.float64)
            flat = x.detach().view(-1)
            with torch.no_grad():
                for k in range(x.numel()):
                    orig = flat[k].item()
                    flat[k] = orig + eps
                    hi = _outputs(func, tupled)[oi].detach().reshape(-1).to(torch.float64).cpu()
                    flat[k] = orig - eps
                    lo = _outputs(func, tupled)[oi].detach().reshape(-1).to(torch.float64).cpu()
                    flat[k] = orig
                    numerical[k] = (hi - lo) / (2 * eps)
            analytical = torch.zeros(x.numel(), n_out, dtype=torch.float64)
            out_now = _outputs(func, tupled)[oi]
            for j in range(n_out):
                onehot = torch.zeros(n_out, dtype=out_now.dtype, device=out_now.device)
                onehot[j] = 1
                g, = torch.autograd.grad(out_now, x, grad_outputs=onehot.view(out_now.shape), retain_graph=True,
                                         allow_unused=True)
                if g is not None:
                    analytical[:, j] = g.detach().reshape(-1).to(torch.float64).cpu()
            if not torch.allclose(analytical, numerical, rtol=rtol, atol=atol):
                msg = (f"Jacobian mismatch for output {oi} with respect to input {ii},\n"
                       f"numerical:{numerical}\nanalytical:{analytical}\n")
                if raise_exception:
                    raise GradcheckError(msg)
                return False
    return True
