# The op registry's declarations: each op once, as PyTorch's Python signature (its schema without types that
# do not matter here) plus what the generic layer needs. registry.py turns every line into torch.NAME, the
# Tensor method, the in-place method NAME_ and the out= variant; the sweep's op generator
# (tests/sweep/gen_ops.py) reads this same table, so every declared op is fuzzed against real PyTorch.
# Pure data on purpose: no imports, so a plain Python can read it.
#
# Columns:
#   schema   "name(Tensor input, Scalar other, *, Scalar alpha=1, Tensor out=None)": parameter kinds
#            Tensor (must be a tensor), Scalar (a tensor or a number), int (one dim, not a tuple),
#            float (a number or a 0-dim tensor: logit's eps), Any;
#            "*" starts keyword-only ones;
#            `out` present = the op has an out= variant.
#   kernel   "module.function" in torch._ops: called with the schema's parameters (positional ones by
#            position, keyword-only ones by name); `out=` reaches it only for the in-place form (out is self).
#   kind     pointwise: TensorIterator op (broadcasting, promotion, overlap checks on writes);
#            unary / binary tell the sweep how to call it; reduction: reduces `dim`; other: anything else.
#   out_rule how out's dtype is checked (out.py check_dtype): castable / exact / same_as_input /
#            index_select / cat / found (exactly the result's: ATen's non-promoting unary ops) /
#            same_as_input_nan_to_num / reduce_dtype (the result is computed in out's dtype) / none (no out=).
#   variants "method" (Tensor.NAME), "inplace" (Tensor.NAME_).
#   promote  the result dtype, known before the kernel runs (so out='s dtype is checked first, as in ATen):
#            default (torch.result_type of the tensor/number arguments), float (integers become the default
#            float), bool (comparisons), same (the input's), int_only (result_type; floats are refused by the
#            kernel), square (result_type(input, 2)).

OPS = (
    # ---- binary pointwise
    ("add(Tensor input, Scalar other, *, Scalar alpha=1, Tensor out=None)", "elementwise.add",
     "binary", "castable", "method inplace", "default"),
    ("sub(Tensor input, Scalar other, *, Scalar alpha=1, Tensor out=None)", "elementwise.sub",
     "binary", "castable", "method inplace", "default"),
    ("mul(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.mul", "binary", "castable",
     "method inplace", "default"),
    ("div(Tensor input, Scalar other, *, Any rounding_mode=None, Tensor out=None)", "elementwise.div",
     "binary", "castable", "method inplace", "float"),
    ("floor_divide(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.floor_divide", "binary",
     "castable", "method inplace", "default"),
    ("remainder(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.remainder", "binary",
     "castable", "method inplace", "default"),
    ("fmod(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.fmod", "binary", "castable",
     "method inplace", "default"),
    # (pow.Scalar: a number base with a tensor exponent; two numbers are refused by elementwise.pow)
    ("pow(Scalar input, Scalar exponent, *, Tensor out=None)", "elementwise.pow", "binary", "castable",
     "method inplace", "default"),
    ("atan2(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.atan2", "binary", "castable",
     "method inplace", "float"),
    ("maximum(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.maximum", "binary", "castable",
     "method", "default"),
    ("fmax(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.fmax", "binary", "castable",
     "method", "default"),
    ("fmin(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.fmin", "binary", "castable",
     "method", "default"),
    ("minimum(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.minimum", "binary", "castable",
     "method", "default"),
    ("eq(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.eq", "binary", "castable",
     "method inplace", "bool"),
    ("ne(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.ne", "binary", "castable",
     "method inplace", "bool"),
    ("lt(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.lt", "binary", "castable",
     "method inplace", "bool"),
    ("le(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.le", "binary", "castable",
     "method inplace", "bool"),
    ("gt(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.gt", "binary", "castable",
     "method inplace", "bool"),
    ("ge(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.ge", "binary", "castable",
     "method inplace", "bool"),
    ("logical_and(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.logical_and", "binary",
     "castable", "method inplace", "bool"),
    ("logical_or(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.logical_or", "binary",
     "castable", "method inplace", "bool"),
    ("logical_xor(Tensor input, Tensor other, *, Tensor out=None)", "elementwise.logical_xor", "binary",
     "castable", "method inplace", "bool"),
    ("bitwise_and(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.bitwise_and", "binary",
     "castable", "method inplace", "int_only"),
    ("bitwise_or(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.bitwise_or", "binary",
     "castable", "method inplace", "int_only"),
    ("bitwise_xor(Tensor input, Scalar other, *, Tensor out=None)", "elementwise.bitwise_xor", "binary",
     "castable", "method inplace", "int_only"),
    # (special_ops.py: xlogy's input may be a number too; hypot/logaddexp/logaddexp2 refuse integers in the kernel)
    ("xlogy(Scalar input, Scalar other, *, Tensor out=None)", "special_ops.xlogy", "binary", "castable",
     "method inplace", "float"),
    ("copysign(Tensor input, Scalar other, *, Tensor out=None)", "special_ops.copysign", "binary", "castable",
     "method inplace", "float"),
    ("hypot(Tensor input, Tensor other, *, Tensor out=None)", "special_ops.hypot", "binary", "castable",
     "method inplace", "default"),
    ("logaddexp(Tensor input, Tensor other, *, Tensor out=None)", "special_ops.logaddexp", "binary", "castable",
     "method", "default"),
    ("logaddexp2(Tensor input, Tensor other, *, Tensor out=None)", "special_ops.logaddexp2", "binary", "castable",
     "method", "default"),
    # ---- unary pointwise
    ("neg(Tensor input, *, Tensor out=None)", "unary.neg", "unary", "found", "method inplace", "same"),
    ("abs(Tensor input, *, Tensor out=None)", "unary.abs", "unary", "found", "method inplace", "same"),
    ("sign(Tensor input, *, Tensor out=None)", "unary.sign", "unary", "found", "method inplace", "same"),
    ("exp(Tensor input, *, Tensor out=None)", "unary.exp", "unary", "castable", "method inplace", "float"),
    ("expm1(Tensor input, *, Tensor out=None)", "unary.expm1", "unary", "castable", "method inplace", "float"),
    ("log(Tensor input, *, Tensor out=None)", "unary.log", "unary", "castable", "method inplace", "float"),
    ("log2(Tensor input, *, Tensor out=None)", "unary.log2", "unary", "castable", "method inplace", "float"),
    ("log10(Tensor input, *, Tensor out=None)", "unary.log10", "unary", "castable", "method inplace", "float"),
    ("log1p(Tensor input, *, Tensor out=None)", "unary.log1p", "unary", "castable", "method inplace", "float"),
    ("sqrt(Tensor input, *, Tensor out=None)", "unary.sqrt", "unary", "castable", "method inplace", "float"),
    ("rsqrt(Tensor input, *, Tensor out=None)", "unary.rsqrt", "unary", "castable", "method inplace", "float"),
    ("reciprocal(Tensor input, *, Tensor out=None)", "unary.reciprocal", "unary", "castable",
     "method inplace", "float"),
    ("sin(Tensor input, *, Tensor out=None)", "unary.sin", "unary", "castable", "method inplace", "float"),
    ("cos(Tensor input, *, Tensor out=None)", "unary.cos", "unary", "castable", "method inplace", "float"),
    ("tan(Tensor input, *, Tensor out=None)", "unary.tan", "unary", "castable", "method inplace", "float"),
    ("tanh(Tensor input, *, Tensor out=None)", "unary.tanh", "unary", "castable", "method inplace", "float"),
    ("asin(Tensor input, *, Tensor out=None)", "unary.asin", "unary", "castable", "method inplace", "float"),
    ("acos(Tensor input, *, Tensor out=None)", "unary.acos", "unary", "castable", "method inplace", "float"),
    ("atan(Tensor input, *, Tensor out=None)", "unary.atan", "unary", "castable", "method inplace", "float"),
    ("sinh(Tensor input, *, Tensor out=None)", "unary.sinh", "unary", "castable", "method inplace", "float"),
    ("cosh(Tensor input, *, Tensor out=None)", "unary.cosh", "unary", "castable", "method inplace", "float"),
    ("asinh(Tensor input, *, Tensor out=None)", "unary.asinh", "unary", "castable", "method inplace", "float"),
    ("acosh(Tensor input, *, Tensor out=None)", "unary.acosh", "unary", "castable", "method inplace", "float"),
    ("atanh(Tensor input, *, Tensor out=None)", "unary.atanh", "unary", "castable", "method inplace", "float"),
    ("exp2(Tensor input, *, Tensor out=None)", "unary.exp2", "unary", "castable", "method inplace", "float"),
    ("sigmoid(Tensor input, *, Tensor out=None)", "unary.sigmoid", "unary", "castable", "method inplace",
     "float"),
    ("relu(Tensor input)", "unary.relu", "unary", "none", "method inplace", "same"),
    ("erf(Tensor input, *, Tensor out=None)", "unary.erf", "unary", "castable", "method inplace", "float"),
    ("erfinv(Tensor input, *, Tensor out=None)", "unary.erfinv", "unary", "castable", "method inplace", "float"),
    ("erfc(Tensor input, *, Tensor out=None)", "special_ops.erfc", "unary", "castable", "method inplace", "float"),
    ("lgamma(Tensor input, *, Tensor out=None)", "special_ops.lgamma", "unary", "castable", "method inplace",
     "float"),
    ("digamma(Tensor input, *, Tensor out=None)", "special_ops.digamma", "unary", "castable", "method inplace",
     "float"),
    ("sinc(Tensor input, *, Tensor out=None)", "special_ops.sinc", "unary", "castable", "method inplace", "float"),
    ("logit(Tensor input, float eps=None, *, Tensor out=None)", "special_ops.logit", "unary", "castable",
     "method inplace", "float"),
    ("floor(Tensor input, *, Tensor out=None)", "unary.floor", "unary", "found", "method inplace", "same"),
    ("ceil(Tensor input, *, Tensor out=None)", "unary.ceil", "unary", "found", "method inplace", "same"),
    ("trunc(Tensor input, *, Tensor out=None)", "unary.trunc", "unary", "found", "method inplace", "same"),
    ("round(Tensor input, *, Any decimals=0, Tensor out=None)", "unary.round", "unary", "found",
     "method inplace", "same"),
    ("frac(Tensor input, *, Tensor out=None)", "unary.frac", "unary", "found", "method inplace", "same"),
    ("square(Tensor input, *, Tensor out=None)", "unary.square", "unary", "found", "method inplace",
     "square"),
    ("logical_not(Tensor input, *, Tensor out=None)", "unary.logical_not", "unary", "castable",
     "method inplace", "bool"),
    ("bitwise_not(Tensor input, *, Tensor out=None)", "unary.bitwise_not", "unary", "found",
     "method inplace", "int_only"),
    ("clamp(Tensor input, Scalar min=None, Scalar max=None, *, Tensor out=None)", "unary.clamp", "unary",
     "found", "method inplace", "default"),
    ("clamp_min(Tensor input, Scalar min, *, Tensor out=None)", "unary.clamp_min", "unary", "found",
     "method inplace", "default"),
    ("clamp_max(Tensor input, Scalar max, *, Tensor out=None)", "unary.clamp_max", "unary", "found",
     "method inplace", "default"),
    ("nan_to_num(Tensor input, Any nan=0.0, Any posinf=None, Any neginf=None, *, Tensor out=None)",
     "unary.nan_to_num", "unary", "same_as_input_nan_to_num", "method inplace", "same"),
    # ---- others with out=
    ("where(Tensor condition, Scalar input, Scalar other, *, Tensor out=None)", "elementwise.where", "other",
     "castable", "", "default"),
    ("sum(Tensor input, Any dim=None, Any keepdim=False, *, Any dtype=None, Tensor out=None)", "reduction.sum",
     "reduction", "reduce_dtype", "", "default"),
    ("prod(Tensor input, int dim=None, Any keepdim=False, *, Any dtype=None, Tensor out=None)", "reduction.prod",
     "reduction", "reduce_dtype", "method", "default"),
    ("mean(Tensor input, Any dim=None, Any keepdim=False, *, Any dtype=None, Tensor out=None)", "reduction.mean",
     "reduction", "castable", "", "float"),
    ("amax(Tensor input, Any dim=(), Any keepdim=False, *, Tensor out=None)", "reduction.amax", "reduction",
     "same_as_input", "", "same"),
    ("amin(Tensor input, Any dim=(), Any keepdim=False, *, Tensor out=None)", "reduction.amin", "reduction",
     "same_as_input", "", "same"),
    ("mm(Tensor input, Tensor mat2, *, Tensor out=None)", "linalg.mm", "other", "exact", "", "same"),
    ("bmm(Tensor input, Tensor mat2, *, Tensor out=None)", "linalg.bmm", "other", "exact", "", "same"),
    ("matmul(Tensor input, Tensor other, *, Tensor out=None)", "linalg.matmul", "other", "exact", "", "same"),
    ("index_select(Tensor input, Any dim, Tensor index, *, Tensor out=None)", "indexing.index_select",
     "other", "index_select", "", "same"),
    ("cat(Any tensors, Any dim=0, *, Tensor out=None)", "join.cat", "other", "cat", "", "default"),
    ("stack(Any tensors, Any dim=0, *, Tensor out=None)", "join.stack", "other", "cat", "", "default"),
)

# Other names of the same ops (torch.NAME, Tensor.NAME and Tensor.NAME_ wherever the op has them).
ALIASES = (
    ("subtract", "sub"), ("multiply", "mul"), ("divide", "div"), ("true_divide", "div"), ("greater", "gt"),
    ("greater_equal", "ge"), ("less", "lt"), ("less_equal", "le"), ("not_equal", "ne"), ("negative", "neg"),
    ("absolute", "abs"), ("clip", "clamp"), ("arctan2", "atan2"), ("fix", "trunc"), ("concat", "cat"),
    ("concatenate", "cat"), ("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"), ("arcsinh", "asinh"),
    ("arccosh", "acosh"), ("arctanh", "atanh"),
)
