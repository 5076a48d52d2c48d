# torch.__future__: the switches Module._apply consults (both off, PyTorch's defaults).
_overwrite_module_params_on_conversion = False
_swap_module_params_on_conversion = False


def set_overwrite_module_params_on_conversion(value):
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = bool(value)


def get_overwrite_module_params_on_conversion():
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value):
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = bool(value)


def get_swap_module_params_on_conversion():
    return _swap_module_params_on_conversion
