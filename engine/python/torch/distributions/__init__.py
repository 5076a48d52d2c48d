# torch.distributions for DeviceScope: Distribution, Normal, Categorical, Bernoulli, constraints and
# kl_divergence, written after PyTorch's (same sampling calls, so a seed gives PyTorch's samples; same
# validation and messages). The reinforcement-learning and VAE tutorials use these.
from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .kl import kl_divergence, register_kl
from .normal import Normal

__all__ = ["Bernoulli", "Categorical", "Distribution", "Normal", "constraints", "kl_divergence", "register_kl"]
