# source: https://github.com/pytorch/examples/tree/main/super_resolution (model.py, main.py: ESPCN - three
#         conv + ReLU layers, a conv to upscale_factor^2 channels and nn.PixelShuffle, orthogonal init, MSELoss
#         with Adam, PSNR in the test pass)
# changed: BSDS300 replaced by 48 synthetic 1x33x33 luminance images (smooth sums of sinusoids); the low-resolution
#          inputs are 11x11, made with F.interpolate(mode='area') instead of PIL's bicubic resize (no torchvision);
#          upscale 3, 12 epochs of batch 8, lr 0.003; argparse replaced by constants; checks at the end (loss
#          falls, PSNR rises, shapes, devices, the saved model reloads and predicts the same)
# reference: real
import math
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()

        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 64, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(64, 64, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(64, 32, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(32, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x

    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv2.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv3.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv4.weight)


def synthetic_images(n, size):
    g = torch.Generator().manual_seed(1)
    ys = torch.linspace(0, 1, size).reshape(size, 1)
    xs = torch.linspace(0, 1, size).reshape(1, size)
    out = []
    for _ in range(n):
        f = torch.rand(4, generator=g) * 6 + 1
        ph = torch.rand(2, generator=g) * 6.28
        img = 0.5 + 0.25 * torch.sin(f[0] * xs * 3.14 + ph[0]) * torch.cos(f[1] * ys * 3.14) \
            + 0.2 * torch.sin(f[2] * (xs + ys) * 3.14 + ph[1]) * torch.cos(f[3] * ys * 3.14)
        out.append(img.clamp(0, 1).unsqueeze(0))
    return torch.stack(out)


upscale_factor = 3
batch_size = 8
test_batch_size = 8
n_epochs = 12
lr = 0.003
torch.manual_seed(123)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

print('===> Loading datasets')
targets = synthetic_images(48, 33)
inputs = F.interpolate(targets, scale_factor=1 / upscale_factor, mode='area')
train_set = TensorDataset(inputs[:40], targets[:40])
test_set = TensorDataset(inputs[40:], targets[40:])
training_data_loader = DataLoader(dataset=train_set, batch_size=batch_size, shuffle=True)
testing_data_loader = DataLoader(dataset=test_set, batch_size=test_batch_size, shuffle=False)

print('===> Building model')
model = Net(upscale_factor=upscale_factor).to(device)
criterion = nn.MSELoss()

optimizer = optim.Adam(model.parameters(), lr=lr)

losses = []


def train(epoch):
    epoch_loss = 0
    for iteration, batch in enumerate(training_data_loader, 1):
        input, target = batch[0].to(device), batch[1].to(device)

        optimizer.zero_grad()
        loss = criterion(model(input), target)
        epoch_loss += loss.item()
        loss.backward()
        optimizer.step()

    losses.append(epoch_loss / len(training_data_loader))
    print("===> Epoch {} Complete: Avg. Loss: {:.4f}".format(epoch, epoch_loss / len(training_data_loader)))


def test():
    avg_psnr = 0
    with torch.no_grad():
        for batch in testing_data_loader:
            input, target = batch[0].to(device), batch[1].to(device)

            prediction = model(input)
            mse = criterion(prediction, target)
            psnr = 10 * math.log10(1 / mse.item())
            avg_psnr += psnr
    avg_psnr /= len(testing_data_loader)
    print("===> Avg. PSNR: {:.4f} dB".format(avg_psnr))
    return avg_psnr


def checkpoint(folder, epoch):
    model_out_path = os.path.join(folder, "model_epoch_{}.pth".format(epoch))
    torch.save(model, model_out_path)
    print("Checkpoint saved to {}".format(model_out_path))
    return model_out_path


with tempfile.TemporaryDirectory() as folder:
    psnrs = []
    for epoch in range(1, n_epochs + 1):
        train(epoch)
        psnrs.append(test())
    path = checkpoint(folder, n_epochs)

    # checks (not in the example)
    inp, tgt = test_set[:][0].to(device), test_set[:][1].to(device)
    bilinear = F.interpolate(inp, scale_factor=upscale_factor, mode='bilinear', align_corners=False)
    bilinear_psnr = 10 * math.log10(1 / F.mse_loss(bilinear, tgt).item())
    print("bilinear upsampling PSNR {:.2f} dB, model {:.2f} dB".format(bilinear_psnr, psnrs[-1]))
    assert losses[-1] < losses[0] * 0.5, losses
    assert psnrs[-1] > psnrs[0] + 1.0, psnrs
    out = model(inp)
    assert out.shape == (8, 1, 33, 33) and out.device == inp.device
    assert type(out.grad_fn).__name__ == "PixelShuffleBackward0"
    reloaded = torch.load(path, weights_only=False) if "weights_only" in torch.load.__code__.co_varnames \
        else torch.load(path)
    assert torch.allclose(reloaded(inp), out, atol=1e-5)
print("ok")
