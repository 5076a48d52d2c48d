# nn.LSTM on CUDA keeps cuDNN's single weight buffer: .to('cuda') copies each weight over, then
# flatten_parameters() copies them into one buffer (device-to-device, named '<weight> -> flat weights'), makes every
# weight a view of it and frees the per-weight copies; Parameter identity, gradients and optimizer links survive;
# a second move or flatten_parameters() copies nothing; DataParallel replicas are not flat (PyTorch's warning).
import torch
from torch import nn
import devicescope.engine as dse
model = nn.Sequential(nn.Embedding(10, 4), nn.LSTM(4, 8, num_layers=2))
w0 = model[1].weight_ih_l0
opt = torch.optim.SGD(model.parameters(), lr=0.1)
n = len(dse.transfers())
model.to("cuda:0")
print(model[1].weight_ih_l0 is w0, w0.device, w0.is_contiguous())
ws = model[1]._flat_weights
print([w.data_ptr() - ws[0].data_ptr() for w in ws][:4])
for t in dse.transfers()[n:]:
    print(t["src"], t["dst"], t["bytes"], t["owner"])
print(torch.cuda.memory_allocated(0))
out, (h, c) = model[1](model[0](torch.zeros(5, 2, dtype=torch.long, device="cuda:0")))
out.sum().backward(); opt.step()
print(w0.grad.device, w0.grad.shape)
n = len(dse.transfers())
model.to("cuda:0"); model[1].flatten_parameters()
print("second move copies:", len(dse.transfers()) - n)
model.cpu()
print(w0.device, [w.data_ptr() for w in model[1]._flat_weights][:1] != [0])
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    dp = nn.DataParallel(nn.LSTM(4, 8, batch_first=True)).cuda()
    out, (h, c) = dp(torch.randn(4, 5, 4))
print(out.shape, h.shape, [str(w.message)[:60] for w in caught])
