# source: https://github.com/pytorch/examples/blob/main/regression/main.py (Linear regression: fit a degree-4
#         polynomial with a single nn.Linear, smooth_l1_loss and a hand-written SGD step)
# changed: torch.manual_seed(0) added; the model and batches live on the GPU when one exists (the example runs on
#          the CPU); the open-ended `count(1)` loop stops after at most 5000 batches; checks at the end (the
#          loss reached the example's 1e-3 stop criterion, the learned coefficients match the target ones to
#          0.25: at that loss the x and x^3 terms still trade about 0.1, and the BLAS in use decides on which
#          batch the loop stops; under OpenBLAS real PyTorch stops with x off by 0.115).
# reference: real
from __future__ import print_function
from itertools import count

import torch
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
POLY_DEGREE = 4
W_target = (torch.randn(POLY_DEGREE, 1) * 5).to(device)
b_target = (torch.randn(1) * 5).to(device)


def make_features(x):
    """Builds features i.e. a matrix with columns [x, x^2, x^3, x^4]."""
    x = x.unsqueeze(1)
    return torch.cat([x ** i for i in range(1, POLY_DEGREE+1)], 1)


def f(x):
    """Approximated function."""
    return x.mm(W_target) + b_target.item()


def poly_desc(W, b):
    """Creates a string description of a polynomial."""
    result = 'y = '
    for i, w in enumerate(W):
        result += '{:+.2f} x^{} '.format(w, i + 1)
    result += '{:+.2f}'.format(b[0])
    return result


def get_batch(batch_size=32):
    """Builds a batch i.e. (x, f(x)) pair."""
    random = torch.randn(batch_size).to(device)
    x = make_features(random)
    y = f(x)
    return x, y


# Define model
fc = torch.nn.Linear(W_target.size(0), 1).to(device)
first_loss = None

for batch_idx in count(1):
    # Get data
    batch_x, batch_y = get_batch()

    # Reset gradients
    fc.zero_grad()

    # Forward pass
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()
    first_loss = loss if first_loss is None else first_loss

    # Backward pass
    output.backward()

    # Apply gradients
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)

    # Stop criterion
    if loss < 1e-3 or batch_idx >= 5000:
        break

print('Loss: {:.6f} after {} batches'.format(loss, batch_idx))
print('==> Learned function:\t' + poly_desc(fc.weight.view(-1), fc.bias))
print('==> Actual function:\t' + poly_desc(W_target.view(-1), b_target))

# Checks of what it computed.
assert loss < 1e-3 and loss < first_loss, (first_loss, loss, batch_idx)
assert fc.weight.shape == (1, POLY_DEGREE) and fc.weight.device == W_target.device == batch_x.device
assert fc.weight.grad.device == fc.weight.device and batch_x.shape == (32, POLY_DEGREE)
assert torch.allclose(fc.weight.view(-1), W_target.view(-1), atol=0.25), (fc.weight, W_target)
assert torch.allclose(fc.bias, b_target, atol=0.25), (fc.bias, b_target)
assert poly_desc(W_target.view(-1), b_target).count(' x^') == POLY_DEGREE
print("checks passed")
