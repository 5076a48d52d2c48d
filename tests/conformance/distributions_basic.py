# torch.distributions against real PyTorch: Normal, Categorical, Bernoulli as the reinforcement-learning and
# VAE tutorials use them (seeded samples, rsample's gradient, log_prob, entropy, mean/stddev/mode, cdf/icdf,
# expand, enumerate_support, kl_divergence), reprs, shapes, and validation errors in PyTorch's words.
# (A single Categorical draw differs between 1.13 and 2.x, README's multinomial row: samples are drawn in
# batches of more than one.)
import torch
from torch.distributions import Bernoulli, Categorical, Normal, kl_divergence
import torch.distributions as D


def r(t):
    return [round(v, 4) + 0.0 for v in t.detach().flatten().tolist()]


torch.manual_seed(0)
n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(n, n.batch_shape, n.event_shape, n.mean, n.stddev, n.variance, n.mode)
print("sample", r(n.sample()), r(n.sample((3,))), n.sample((2, 3)).shape)
loc = torch.tensor([0.5, -0.5], requires_grad=True)
scale = torch.tensor([1.0, 2.0], requires_grad=True)
m = Normal(loc, scale)
z = m.rsample((4,))
print("rsample", r(z), type(z.grad_fn).__name__)
z.sum().backward()
print("rsample grads", r(loc.grad), r(scale.grad))
lp = m.log_prob(torch.tensor([0.0, 1.0]))
print("log_prob", r(lp), r(m.entropy()), r(m.cdf(torch.tensor([0.5, 0.0]))), r(m.icdf(torch.tensor([0.5, 0.9]))))
lp.sum().backward()
print("log_prob grads", r(loc.grad), r(scale.grad))
s = Normal(0.0, 1.0)
print(s, s.batch_shape, r(s.log_prob(torch.tensor([0.0, 1.0, -2.0]))), s.expand((3,)).batch_shape)
print("kl normal", r(kl_divergence(Normal(0.0, 1.0), Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])))))

probs = torch.tensor([0.1, 0.2, 0.7])
c = Categorical(probs=probs * 2)
print(c, c.probs, r(c.logits), c.batch_shape, c.event_shape, c.param_shape, c.support, c.mode)
print("cat sample", c.sample((10,)), c.sample((2, 3)), r(c.entropy()), r(c.log_prob(torch.tensor([0, 2, 1]))))
logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 3.0]], requires_grad=True)
c2 = Categorical(logits=logits)
print(c2, c2.batch_shape, r(c2.probs), r(c2.logits), c2.mean, c2.enumerate_support().shape)
a = c2.sample((5,))
print("cat sample batch", a, a.shape)
loss = -(c2.log_prob(a[0]) * torch.tensor([1.0, -2.0])).sum() - c2.entropy().sum()
loss.backward()
print("policy grad", r(logits.grad))
print("kl cat", r(kl_divergence(c, Categorical(logits=torch.zeros(3)))), c.expand((2,)).batch_shape)

b = Bernoulli(torch.tensor([0.2, 0.5, 0.9]))
print(b, b.mean, r(b.variance), r(b.logits), b.mode, b.sample((4,)), r(b.entropy()))
print("bern log_prob", r(b.log_prob(torch.tensor([1.0, 0.0, 1.0]))), Bernoulli(logits=torch.tensor(0.3)),
      r(kl_divergence(b, Bernoulli(torch.tensor([0.5, 0.5, 0.5])))), b.enumerate_support().tolist())
print("after", torch.rand(3))

for label, make in [
    ("scale", lambda: Normal(torch.zeros(2), torch.tensor([1.0, -1.0]))),
    ("both", lambda: Categorical(probs=probs, logits=probs)),
    ("neither", lambda: Categorical()),
    ("probs 0-d", lambda: Categorical(probs=torch.tensor(1.0))),
    ("probs neg", lambda: Categorical(probs=torch.tensor([0.5, -0.5, 1.0]))),
    ("bernoulli", lambda: Bernoulli(torch.tensor([1.5]))),
    ("support", lambda: Categorical(probs).log_prob(torch.tensor([3]))),
    ("not tensor", lambda: Normal(0.0, 1.0).log_prob(0.5)),
    ("shape", lambda: Normal(torch.zeros(2), 1.0).log_prob(torch.zeros(3))),
    ("kl", lambda: kl_divergence(Normal(0.0, 1.0), Categorical(probs))),
]:
    try:
        make()
        print(label, "no error")
    except (ValueError, NotImplementedError) as e:
        print(label, type(e).__name__, str(e).split("\n")[0])
print("no validation", Normal(0.0, -1.0, validate_args=False).scale)
print("constraints", D.constraints.positive, D.constraints.simplex, D.constraints.real, D.constraints.unit_interval,
      D.constraints.real_vector, D.constraints.integer_interval(0, 4))
