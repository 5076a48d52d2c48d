# The autograd half of the C++ fast path (engine/python/bindings_ops.cpp) when autograd is recording: the C++
# entry computes the result exactly as it does without autograd (same allocation, same kernel), then calls
# record() here, which gives the result the node the Python path would give it, through the Python path's own
# attach functions (elementwise.attach_binary, unary.attach_unary) and gradient formulas. The node's class,
# saved tensors, next_functions and backward are therefore those of the Python path by construction.
#
# The C++ side only calls this for what the Python path handles the same way: out-of-place add/sub/mul/div
# with a floating result (a reflected one only for add and mul: Tensor.__rsub__ is RsubBackward1), relu and
# neg out of place, tanh/sigmoid/exp of float32 out of place, x.sum() of a whole float tensor, x ** 2 / x ** 3 of a
# float tensor without size-1 dims (elementwise._pow_float_number's PowBackward0), in-place add_/sub_
# of a floating tensor that is not a view (nor a leaf that requires grad). Anything else (other in-place ops under
# autograd, out=, rounding_mode=) stays on the Python path.
from . import _core as C
from . import elementwise as E
from . import reduction as R
from . import unary as U

# Codes bindings_ops.cpp passes (its BinaryKind / UnaryKind order): add, sub, mul, div; then 16 + relu, neg.
ADD, SUB, MUL, DIV = 0, 1, 2, 3
RELU, NEG, TANH, SIGMOID, EXP = 16, 17, 18, 19, 20
SUM = 32  # x.sum() of a whole float tensor
POW = 33  # x ** 2 / x ** 3 of a float tensor (b: the exponent as given)
ADD_, SUB_ = 48, 49  # in-place add_/sub_ of a float tensor that is not a view (written; its history rebased here)

# add/sub's formulas and saved set for the default alpha (int 1), made once: they depend on alpha alone
_ADD_GRAD_1, _SUB_GRAD_1, _SAVE_ALPHA_1 = E.add_grad(1), E.sub_grad(1), E._save_alpha(1)


def record(kind, a, b, result, alpha):
    """Attaches `result`'s grad_fn. a, b: the operands in compute order (b is None for a unary op); alpha:
    add/sub's alpha= value, or None when not given."""
    if kind == RELU:
        U.attach_unary("ReluBackward0", a, result, U.relu_grad, "r")
    elif kind == NEG:
        U.attach_unary("NegBackward0", a, result, U.neg_grad, None)
    elif kind == TANH:
        U.attach_unary("TanhBackward0", a, result, U.tanh_grad, "r")
    elif kind == SIGMOID:
        U.attach_unary("SigmoidBackward0", a, result, U.sigmoid_grad, "r")
    elif kind == EXP:
        U.attach_unary("ExpBackward0", a, result, U.exp_grad, "r")
    elif kind == ADD_ or kind == SUB_:
        # elementwise.add/sub's forms: add folds alpha into a number operand, sub saves it as given
        if alpha is None or (kind == ADD_ and not isinstance(b, C.Tensor)):
            alpha = 1
        name, grad = ("AddBackward0", E.add_grad(alpha)) if kind == ADD_ else ("SubBackward0", E.sub_grad(alpha))
        E.attach_rebased(name, a, b, grad, E._save_alpha(alpha))
    elif kind == SUM:
        R.attach_sum(a, result)
    elif kind == POW:
        E.attach_binary("PowBackward0", a, b, result, E._pow_grad, E._save_pow)  # (elementwise._pow_float_number's)
    elif kind == ADD:
        if alpha is None or not isinstance(b, C.Tensor):
            # elementwise.add folds alpha into a number operand (b * alpha) before the op
            E.attach_binary("AddBackward0", a, b, result, _ADD_GRAD_1, _SAVE_ALPHA_1)
        else:
            E.attach_binary("AddBackward0", a, b, result, E.add_grad(alpha), E._save_alpha(alpha))
    elif kind == SUB:
        if alpha is None:
            E.attach_binary("SubBackward0", a, b, result, _SUB_GRAD_1, _SAVE_ALPHA_1)
        else:
            E.attach_binary("SubBackward0", a, b, result, E.sub_grad(alpha), E._save_alpha(alpha))
    elif kind == MUL:
        if not isinstance(a, C.Tensor):
            a, b = b, a  # number * tensor runs as tensor.mul(number) (elementwise.mul)
        E.attach_binary("MulBackward0", a, b, result, E.mul_grad, E._save_mul)
    elif kind == DIV:
        E.attach_binary("DivBackward0", a, b, result, E.div_grad, E._save_div)
    else:
        raise RuntimeError(f"DeviceScope: fast path recorded an unknown op code {kind}")
