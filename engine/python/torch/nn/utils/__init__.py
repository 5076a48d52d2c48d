# torch.nn.utils: gradient clipping, parameter/vector conversion, packed sequences (rnn), the hook-based
# weight_norm / spectral_norm, pruning (prune), parametrize and
# parametrizations (weight_norm, spectral_norm).
from .clip_grad import clip_grad_norm_, clip_grad_value_, clip_grad_norm, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from . import rnn
from .weight_norm import remove_weight_norm, weight_norm
from .spectral_norm import remove_spectral_norm, spectral_norm
from . import prune
from . import parametrize
from . import parametrizations
