# SEMANTICS 1 and 6: an index-less "cuda" (and .cuda() without an index) means the *current* CUDA device at
# the moment of the call; set_device / torch.cuda.device change it. torch.device('cuda') != 'cuda:0'.
import torch
import torch.nn as nn

x1 = torch.ones(2, device='cuda:1')
print(torch.cuda.current_device(), torch.cuda.device_count(), torch.cuda.is_available())
y = x1.to('cuda')
print(y.device, y is x1)
print(x1.cuda().device, x1.cuda(1) is x1, x1.to('cuda:1') is x1)
torch.cuda.set_device(1)
print(torch.cuda.current_device())
print(x1.to('cuda') is x1, x1.cuda() is x1)
print(torch.zeros(1, device='cuda').device, torch.zeros(1).cuda().device, torch.zeros(1).device)
m = nn.Linear(1, 1).cuda()
print(m.weight.device, nn.Linear(1, 1).to('cuda').bias.device)
with torch.cuda.device(0):
    print(torch.cuda.current_device(), torch.zeros(1, device='cuda').device, torch.zeros(1).device)
    print(x1.cuda().device)
print(torch.cuda.current_device())
print(torch.device('cuda'), torch.device('cuda') == torch.device('cuda:1'), torch.device('cuda:1') == x1.device)
print(x1)
torch.cuda.set_device(torch.device('cuda:0'))
print(torch.cuda.current_device(), torch.zeros(1, device='cuda').device)
