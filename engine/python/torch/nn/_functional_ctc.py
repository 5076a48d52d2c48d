# F.ctc_loss as ATen computes it (LossCTC.cpp): _ctc_loss's forward (the alpha recursion in log space, eqs 6-8
# of Graves et al.) and its backward (the beta recursion and eq 16, ATen's CPU formula exp(lp) - exp(log(sum
# alpha*beta) + nll - lp) times the incoming gradient), on the host over the operands' values (read where they
# live: no recorded transfer); one CtcLossBackward0 node (tensor lengths are brought to the host as lists first,
# ATen's fast path; cuDNN's CTC is not modelled) saving log_probs, targets, the lengths, blank, zero_infinity
# and the two results
# (neg_log_likelihood [B] and log_alpha [B, T, 2 * max_target_length + 1], allocated in that order after it).
# zero_infinity and the reduction are ATen's separate ops (where, div by the clamped target lengths, mean).
import numpy as np

import torch
from .._ops import _core as C
from ..autograd import graph, grad_mode

_NEGINF = -np.inf


def _lse(*terms):
    """ATen's log-sum-exp of 2 or 3 log terms: the max taken out (0 when every term is -inf)."""
    m = np.maximum.reduce(terms)
    m = np.where(m == _NEGINF, 0.0, m)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return np.log(sum(np.exp(t - m) for t in terms)) + m


def _target_primes(tg, target_length, blank):
    """l' of the paper: the target with a blank before, between and after its labels."""
    primes = np.full(2 * target_length + 1, blank, dtype=np.int64)
    primes[1::2] = tg[:target_length]
    return primes


def _forward_one(lp, primes, input_length, target_length, width):
    """log_alpha (T x width, -inf where unreached) and the negative log likelihood of one sample."""
    la = np.full((lp.shape[0], width), _NEGINF, dtype=lp.dtype)
    n = 2 * target_length + 1
    if input_length == 0:
        return la, (0.0 if target_length == 0 else np.inf)
    la[0, 0] = lp[0, primes[0]]
    if target_length > 0:
        la[0, 1] = lp[0, primes[1]]
    skip = np.zeros(n, dtype=bool)  # s may come from s - 2: a label differing from the one two back
    if n > 2:
        skip[2:] = primes[2:] != primes[:-2]
    for t in range(1, input_length):
        prev = la[t - 1, :n]
        la2 = np.concatenate(([_NEGINF], prev[:-1]))
        la3 = np.where(skip, np.concatenate(([_NEGINF, _NEGINF], prev[:-2]))[:n], _NEGINF)
        la[t, :n] = _lse(prev, la2, la3) + lp[t, primes]
    if target_length == 0:
        return la, -la[input_length - 1, 0]
    l1, l2 = la[input_length - 1, 2 * target_length], la[input_length - 1, 2 * target_length - 1]
    return la, -_lse(np.asarray(l1), np.asarray(l2))


def _backward_one(lp, la, primes, input_length, target_length, nll, gr, zero_infinity):
    """The gradient of one sample's nll w.r.t. its log_probs (T x C), ATen's CPU formula."""
    grad = np.zeros_like(lp)
    if zero_infinity and nll == np.inf:
        return grad
    if input_length == 0:
        return grad
    n = 2 * target_length + 1
    lb = np.full((input_length, n), _NEGINF, dtype=lp.dtype)
    acc = np.full((input_length, lp.shape[1]), _NEGINF, dtype=lp.dtype)  # log sum alpha*beta per label
    lb[input_length - 1, n - 1] = lp[input_length - 1, primes[n - 1]]
    if target_length > 0:
        lb[input_length - 1, n - 2] = lp[input_length - 1, primes[n - 2]]
    skip = np.zeros(n, dtype=bool)  # s may go on to s + 2
    if n > 2:
        skip[:-2] = primes[:-2] != primes[2:]
    for t in range(input_length - 1, -1, -1):
        if t < input_length - 1:
            nxt = lb[t + 1]
            lb2 = np.concatenate((nxt[1:], [_NEGINF]))
            lb3 = np.where(skip, np.concatenate((nxt[2:], [_NEGINF, _NEGINF]))[:n], _NEGINF)
            lb[t] = _lse(nxt, lb2, lb3) + lp[t, primes]
            rows = range(n)
        else:  # the last step: only the final blank and label carry beta
            rows = range(max(n - 2, 0), n)
        for s in reversed(list(rows)):
            c = primes[s]
            v = la[t, s] + lb[t, s]
            if acc[t, c] == _NEGINF:
                acc[t, c] = v
            else:
                acc[t, c] = _lse(np.asarray(acc[t, c]), np.asarray(v))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        grad[:input_length] = (np.exp(lp[:input_length]) - np.exp(acc + nll - lp[:input_length])) * gr
    return grad


def _sample(targets_np, b, target_lengths, offsets, concatenated):
    tl = target_lengths[b]
    return targets_np[offsets[b]:offsets[b] + tl] if concatenated else targets_np[b, :tl]


def _ctc(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    """ATen's _ctc_loss: (neg_log_likelihood [B], log_alpha) with its node."""
    num_labels, batch = log_probs.size(2), log_probs.size(1)
    if not (0 <= blank < num_labels):
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    where = "(while checking arguments for ctc_loss_cpu)"
    for tl in target_lengths:
        if tl < 0:
            raise RuntimeError("Expected target_lengths to have value at least 0, but got value {} {}".format(tl, where))
    concatenated = targets.dim() == 1
    offsets, pos = [], 0
    for tl in target_lengths:
        offsets.append(pos)
        pos += tl
    max_target_length = max(target_lengths) if target_lengths else 0
    if concatenated:
        if targets.size(0) != pos:
            raise RuntimeError("Expected tensor to have size {} at dimension 0, but got size {} for argument #2 "
                               "'targets' (while checking arguments for ctc_loss_cpu)".format(pos, targets.size(0)))
    else:
        if targets.size(0) != batch:
            raise RuntimeError("Expected tensor to have size {} at dimension 0, but got size {} for argument #2 "
                               "'targets' (while checking arguments for ctc_loss_cpu)".format(batch, targets.size(0)))
        if targets.size(1) < max_target_length:
            raise RuntimeError("Expected tensor to have size at least {} at dimension 1, but got size {} for argument "
                               "#2 'targets' {}".format(max_target_length, targets.size(1), where))
    max_input_length = log_probs.size(0)
    for il in input_lengths:
        if il < 0:
            raise RuntimeError("Expected input_lengths to have value at least 0, but got value {} {}".format(il, where))
        if il > max_input_length:
            raise RuntimeError("Expected input_lengths to have value at most {}, but got value {} {}"
                               .format(max_input_length, il, where))
    width = 2 * max_target_length + 1
    if log_probs._impl.is_virtual or targets._impl.is_virtual:
        return _ctc_virtual(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity, width)
    lp_np = np.asarray(C.read(log_probs.contiguous()), dtype=np.float64)
    tg_np = np.asarray(C.read(targets)).astype(np.int64)
    nll_v = np.zeros(batch)
    la_v = np.full((batch, max_input_length, width), _NEGINF)
    primes_all = []
    for b in range(batch):
        primes = _target_primes(_sample(tg_np, b, target_lengths, offsets, concatenated), target_lengths[b], blank)
        primes_all.append(primes)
        la_v[b], nll_v[b] = _forward_one(lp_np[:, b], primes, input_lengths[b], target_lengths[b], width)
    dev, dt = log_probs.device, log_probs.dtype
    nll = torch.empty((batch,), dtype=dt, device=dev)
    C.write(nll, nll_v, bump=False)
    log_alpha = torch.empty((batch, max_input_length, width), dtype=dt, device=dev)
    C.write(log_alpha, la_v, bump=False)
    if grad_mode._enabled[0] and log_probs.requires_grad:
        il, tl = list(input_lengths), list(target_lengths)

        def backward(grads):
            g = grads[0]
            if g is None:
                return [None, None]
            if grad_mode._enabled[0]:
                raise NotImplementedError("DeviceScope: double backward through ctc_loss is not supported (nor is "
                                          "it in PyTorch: ctc_loss_backward is not differentiable)")
            gr = np.asarray(C.read(g.contiguous()), dtype=np.float64).reshape(-1)
            out = np.zeros_like(lp_np)
            for b in range(batch):
                out[:, b] = _backward_one(lp_np[:, b], la_v[b], primes_all[b], il[b], tl[b], nll_v[b], gr[b],
                                          zero_infinity)
            grad = torch.empty(tuple(log_probs.shape), dtype=dt, device=dev)
            C.write(grad, out, bump=False)
            return [grad, None]

        saved = {"blank": blank, "input_lengths": tuple(il), "log_probs": log_probs, "result0": nll,
                 "result1": log_alpha, "target_lengths": tuple(tl), "targets": targets, "zero_infinity": zero_infinity}
        graph.attach("CtcLossBackward0", [nll], [log_probs, None], backward, saved=saved)
    return nll, log_alpha


def _ctc_virtual(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity, width):
    """Shape-only (estimate mode): the same results, node and gradient allocation, no values."""
    batch, dev, dt = log_probs.size(1), log_probs.device, log_probs.dtype
    nll = torch.empty((batch,), dtype=dt, device=dev)
    log_alpha = torch.empty((batch, log_probs.size(0), width), dtype=dt, device=dev)
    if grad_mode._enabled[0] and log_probs.requires_grad:
        shape = tuple(log_probs.shape)
        graph.attach("CtcLossBackward0", [nll], [log_probs, None],
                     lambda grads: [None if grads[0] is None else torch.empty(shape, dtype=dt, device=dev), None],
                     saved={"blank": blank, "input_lengths": tuple(input_lengths), "log_probs": log_probs,
                            "result0": nll, "result1": log_alpha, "target_lengths": tuple(target_lengths),
                            "targets": targets, "zero_infinity": zero_infinity})
    return nll, log_alpha


def _lengths(v, name):
    """Lengths as a list: a tensor is checked and brought to the host as int64 (ATen's .to(kCPU, kLong): a
    recorded copy when it lives on a GPU)."""
    if isinstance(v, torch.Tensor):
        if v.is_floating_point() or v.dtype == torch.bool:
            raise RuntimeError("{} must be integral".format(name))
        return [int(x) for x in v.to("cpu", torch.long).contiguous().reshape(-1).tolist()]
    return [int(x) for x in v]


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    if reduction not in _REDUCTIONS:
        raise ValueError("{} is not a valid value for reduction".format(reduction))
    il = _lengths(input_lengths, "input_lengths")
    tl = _lengths(target_lengths, "target_lengths")
    is_batched = log_probs.dim() == 3
    lp = log_probs if is_batched else log_probs.unsqueeze(1)
    # targets on another device or of another integer type: moved as a service (ATen's comment)
    tg = targets.to(lp.device, torch.long)
    if not is_batched:
        tg = tg.unsqueeze(0) if tg.dim() == 1 and len(tl) == 1 and tg.size(0) != tl[0] else tg
    res = _ctc(lp, tg, il, tl, blank, zero_infinity)[0]
    if zero_infinity:
        res = torch.where(res == float("inf"), torch.zeros((), dtype=res.dtype, device=res.device), res)
    if _REDUCTIONS[reduction] == 1:  # mean: each loss divided by its target length (at least 1)
        target_lengths_t = torch.tensor(tl, dtype=res.dtype, device=res.device).clamp_min(1)
        return (res / target_lengths_t).mean()
    if _REDUCTIONS[reduction] == 2:
        return res.sum()
    return res if is_batched else res.squeeze(0)
