# hostile: a 0.5B-parameter virtual model and every random fill, nn.init and random factory on virtual tensors: no values are generated (peak RSS stays flat)
# expect-exit: 0
# expect-stdout: fills: ok
# expect-stdout: factories: ok
# expect-stdout: model on cuda: True
# expect-stdout: peak RSS growth under 200 MB: True
# expect-transfers: 8
# Before the fix each fill generated the full float64 array and threw it away (1 GB per 16384x16384 tensor).
import resource

import devicescope
import torch
from torch import nn


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


start = peak_mb()
with devicescope.virtual_mode():
    w = torch.empty(16384, 16384)
    w.uniform_(), w.normal_(), w.bernoulli_(), w.random_(), w.random_(0, 10), w.exponential_()
    w.log_normal_(), w.geometric_(0.5), w.fill_(1.0), w.zero_()
    for init in (nn.init.uniform_, nn.init.normal_, nn.init.trunc_normal_, nn.init.ones_, nn.init.zeros_,
                 nn.init.eye_, nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.kaiming_uniform_,
                 nn.init.kaiming_normal_):
        init(w)
    nn.init.constant_(w, 0.5)
    print("fills:", "ok" if w.is_virtual else "not virtual")
    made = [torch.rand(16384, 16384), torch.randn(16384, 16384), torch.randint(0, 10, (16384, 16384)),
            torch.randperm(2**28), torch.normal(0.0, 1.0, (16384, 16384)), torch.rand_like(w),
            torch.randn_like(w), torch.bernoulli(w), torch.multinomial(w, 4)]
    print("factories:", "ok" if all(t.is_virtual for t in made) else [t.is_virtual for t in made])
    del made
    model = nn.Sequential(*[nn.Linear(8192, 16384) for _ in range(4)])
model.to("cuda")
print("model on cuda:", all(p.is_virtual and p.is_cuda for p in model.parameters()))
growth = peak_mb() - start
print(f"peak RSS growth: {growth} MB")
print("peak RSS growth under 200 MB:", growth < 200)
