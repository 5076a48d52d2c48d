# train()/eval() recurse; apply() visits children first then self and returns self.
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Dropout(0.5), nn.BatchNorm1d(2)), nn.ReLU())
print([m.training for m in net.modules()])
print(net.eval() is net)
print([m.training for m in net.modules()])
net[1].train()
print([m.training for m in net.modules()])
print(net.train(False) is net, [m.training for m in net.modules()])
order = []
print(net.apply(lambda m: order.append(type(m).__name__)) is net)
print(order)
print([type(m).__name__ for m in net.children()])
print([name for name, _ in net.named_children()])
print([name for name, _ in net.named_modules()])
print([name for name, _ in net.named_modules(prefix='model')])
print([name for name, _ in net.named_parameters(prefix='model', recurse=True)])
print([name for name, _ in net[1].named_parameters(recurse=False)])
print(net.get_submodule('1.1') is net[1][1])
print(net.get_parameter('0.bias') is net[0].bias)
print(net.get_buffer('1.1.running_var') is net[1][1].running_var)
