# devicescope-args: --sim-memory 64MiB
# SEMANTICS 3 and 8: out of memory in the middle of Module.to. Four Linear(2048, 2048) layers need 4 x 16 MiB
# of weights on a 64 MiB GPU: the fourth weight does not fit. The error is torch.cuda.OutOfMemoryError (a
# RuntimeError); what was converted before it stays converted - the model is left partly moved.
# Only the parts of the message that do not depend on the driver are printed (the real message also has a
# "Process ... has ... memory in use" part and a hint about PYTORCH_CUDA_ALLOC_CONF).
import torch
import torch.nn as nn

model = nn.Sequential(*[nn.Linear(2048, 2048) for _ in range(4)])
try:
    model.to('cuda')
except torch.cuda.OutOfMemoryError as e:
    msg = str(e)
    print(type(e).__name__, isinstance(e, RuntimeError))
    print(msg[:msg.index(' is free.') + len(' is free.')])
    print(msg[msg.index('Of the allocated memory'):msg.index('unallocated.') + len('unallocated.')])
print([str(p.device) for p in model.parameters()])
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
del model
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
torch.cuda.empty_cache()
print(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
