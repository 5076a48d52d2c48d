# torch.nn.modules: every layer class, re-exported by torch.nn.
from .module import Module
from .container import Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
from .linear import Identity, Linear
from .conv import Conv1d, Conv2d
from .conv_transpose import Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .fold import Fold, Unfold
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .embedding_bag import EmbeddingBag
from .loss_nll import GaussianNLLLoss, PoissonNLLLoss
from .pooling3d import AvgPool3d, MaxPool3d
from .loss_ctc import CTCLoss
from .more_layers import (LocalResponseNorm, LPPool1d, LPPool2d, MultiLabelSoftMarginLoss,
                          TripletMarginWithDistanceLoss)
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .normalization import LayerNorm, GroupNorm
from .sparse import Embedding
from .activation import (ReLU, ReLU6, LeakyReLU, ELU, GELU, SiLU, Sigmoid, Tanh, Softplus, Hardtanh,
                         Softmax, LogSoftmax)
from .activation_more import (Mish, SELU, CELU, Softsign, PReLU, GLU, Softmin, Hardswish, Hardsigmoid,
                              Tanhshrink, Softshrink, Hardshrink, Threshold, RReLU, LogSigmoid, Softmax2d)
from .distance import PairwiseDistance, CosineSimilarity
from .padding import (ConstantPad1d, ConstantPad2d, ConstantPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d,
                      ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                      ReplicationPad3d, CircularPad1d, CircularPad2d, CircularPad3d)
from .upsampling import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d
from .pixelshuffle import PixelShuffle, PixelUnshuffle, ChannelShuffle
from .bilinear import Bilinear
from .loss_more import (TripletMarginLoss, MarginRankingLoss, HingeEmbeddingLoss, CosineEmbeddingLoss,
                        SoftMarginLoss)
from .dropout import Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout
from .attention import MultiheadAttention
from .transformer import (Transformer, TransformerEncoder, TransformerDecoder, TransformerEncoderLayer,
                          TransformerDecoderLayer)
from .rnn import RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell
from .flatten import Flatten, Unflatten
from .pooling import (MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d,
                      AdaptiveMaxPool1d, AdaptiveMaxPool2d)
from .loss import (L1Loss, MSELoss, NLLLoss, CrossEntropyLoss, BCELoss, BCEWithLogitsLoss,
                   SmoothL1Loss, HuberLoss, KLDivLoss)

__all__ = [
    "Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict",
    "Identity", "Linear", "Conv1d", "Conv2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm",
    "GroupNorm", "Embedding", "ReLU", "ReLU6", "LeakyReLU", "ELU", "GELU", "SiLU", "Sigmoid", "Tanh",
    "Softplus", "Hardtanh", "Softmax", "LogSoftmax", "Dropout", "Flatten", "Unflatten", "MaxPool1d", "MaxPool2d",
    "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "L1Loss", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss",
    "BCEWithLogitsLoss", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
    "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell",
    "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "MultiheadAttention",
    "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer",
    "Mish", "SELU", "CELU", "Softsign", "PReLU", "GLU", "Softmin", "Hardswish", "Hardsigmoid", "Tanhshrink",
    "Softshrink", "Hardshrink", "Threshold", "RReLU", "LogSigmoid", "Softmax2d", "PairwiseDistance", "CosineSimilarity",
    "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
    "CircularPad2d", "CircularPad3d", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle",
    "PixelUnshuffle", "ChannelShuffle", "Bilinear", "TripletMarginLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
    "CosineEmbeddingLoss", "SoftMarginLoss",
    "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "Fold", "Unfold",
    "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "EmbeddingBag",
    "GaussianNLLLoss", "PoissonNLLLoss", "AvgPool3d", "MaxPool3d",
    "CTCLoss", "LocalResponseNorm", "LPPool1d", "LPPool2d", "MultiLabelSoftMarginLoss",
    "TripletMarginWithDistanceLoss",
]
