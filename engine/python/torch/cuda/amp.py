# torch.cuda.amp: mixed precision is not modelled. Failing loudly beats silently running in float32,
# which would make the memory picture wrong.


class autocast:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("DeviceScope does not model autocast (mixed precision) yet; convert the model "
                                  "with .half() / .to(torch.bfloat16) to see lower-precision placement")


class GradScaler:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("DeviceScope does not model GradScaler (mixed precision) yet")
