# source: https://pytorch.org/tutorials/beginner/basics/buildmodel_tutorial.html (Build the Neural Network)
# changed: the device line uses torch.cuda (1.13 has no torch.accelerator); checks at the end (layer shapes,
#          parameter names and sizes, devices, softmax rows sum to 1).
# reference: real
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)

X = torch.rand(1, 28, 28, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")

input_image = torch.rand(3, 28, 28)
print(input_image.size())
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")

seq_modules = nn.Sequential(flatten, layer1, nn.ReLU(), nn.Linear(20, 10))
input_image = torch.rand(3, 28, 28)
logits2 = seq_modules(input_image)
softmax = nn.Softmax(dim=1)
pred_probab2 = softmax(logits2)

print(f"Model structure: {model}\n\n")
names = []
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
    names.append((name, tuple(param.shape), param.device.type))

# Checks of what it computed.
assert logits.shape == (1, 10) and logits.device.type == device and y_pred.shape == (1,)
assert flat_image.shape == (3, 784) and hidden1.shape == (3, 20) and float(hidden1.min()) >= 0
assert torch.allclose(pred_probab2.sum(1), torch.ones(3)) and pred_probab2.shape == (3, 10)
assert names == [("linear_relu_stack.0.weight", (512, 784), device), ("linear_relu_stack.0.bias", (512,), device),
                 ("linear_relu_stack.2.weight", (512, 512), device), ("linear_relu_stack.2.bias", (512,), device),
                 ("linear_relu_stack.4.weight", (10, 512), device), ("linear_relu_stack.4.bias", (10,), device)]
print("checks passed")
