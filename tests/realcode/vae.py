# source: https://github.com/pytorch/examples/blob/main/vae/main.py (Variational Auto-Encoder: reparameterization
#         with randn_like, binary_cross_entropy + continuous-Bernoulli normalizer + KL divergence, Adam)
# changed: MNIST replaced by 512 synthetic 28x28 images in [0, 1] (a bright band of columns at one of 10 places
#          plus noise); 3 epochs instead of 10, log_interval 2 instead of 10; argparse replaced by a dict of its
#          defaults; torchvision's save_image calls dropped (the reconstruction/sample grids are built but not
#          written); checks at the end (loss falls, shapes, devices, the KL term, samples in (0, 1)).
# reference: real
from __future__ import print_function

import math

import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F
from torch.utils.data import TensorDataset

args = {"batch_size": 128, "epochs": 3, "no_cuda": False, "seed": 1, "log_interval": 2}
args["cuda"] = not args["no_cuda"] and torch.cuda.is_available()

torch.manual_seed(args["seed"])

device = torch.device("cuda" if args["cuda"] else "cpu")


def synthetic_mnist(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.rand(n, 1, 28, 28) * 0.2
    for i in range(n):
        col = int(labels[i]) * 2 + 4
        images[i, 0, :, col:col + 3] += 0.75
    return TensorDataset(images, labels)


kwargs = {'pin_memory': True} if args["cuda"] else {}
train_loader = torch.utils.data.DataLoader(synthetic_mnist(512), batch_size=args["batch_size"], shuffle=True,
                                           **kwargs)
test_loader = torch.utils.data.DataLoader(synthetic_mnist(256), batch_size=args["batch_size"], shuffle=True,
                                          **kwargs)


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()

        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 400)
        self.fc4 = nn.Linear(400, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5*logvar)
        eps = torch.randn_like(std)
        return mu + eps*std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        # clamp to avoid numerical issues with the continuous Bernoulli log normalizing constant
        return torch.clamp(torch.sigmoid(self.fc4(h3)), min=1e-4, max=1.0 - 1e-4)

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE().to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)


def atanh(x):
    # inverse hyperbolic tangent, used to compute the log normalizing constant of the continuous Bernoulli
    return 0.5 * (torch.log(1.0 + x) - torch.log(1.0 - x))


def cont_bern_log_norm(lam, l_lim=0.49, u_lim=0.51):
    # computes the log normalizing constant of a continuous Bernoulli distribution in a numerically stable way.
    # returns the log normalizing constant for lam in (0, l_lim) U (u_lim, 1) and a Taylor approximation in
    # [l_lim, u_lim].
    cut_lam = torch.where(torch.max(torch.le(lam, l_lim), torch.gt(lam, u_lim)), lam, l_lim * torch.ones_like(lam))
    log_norm = torch.log(torch.abs(2.0 * atanh(1 - 2.0 * cut_lam))) - torch.log(torch.abs(1 - 2.0 * cut_lam))
    taylor = torch.log(torch.tensor(2.0)) + 4.0 / 3.0 * torch.pow(lam - 0.5, 2) + 104.0 / 45.0 * torch.pow(lam - 0.5, 4)
    return torch.where(torch.max(torch.le(lam, l_lim), torch.gt(lam, u_lim)), log_norm, taylor)


# Reconstruction + KL divergence losses summed over all elements and batch
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')

    # this term correctly accounts for using a binary cross entropy reconstruction term when the data is not binarized:
    # Loaiza-Ganem and Cunningham. The continuous Bernoulli: fixing a pervasive error in variational autoencoders.
    # NeurIPS, 2019
    # https://arxiv.org/abs/1907.06845
    NLNC = -torch.sum(cont_bern_log_norm(recon_x))  # negative log normalizing constant

    # see Appendix B from VAE paper:
    # Kingma and Welling. Auto-Encoding Variational Bayes. ICLR, 2014
    # https://arxiv.org/abs/1312.6114
    # 0.5 * sum(1 + log(sigma^2) - mu^2 - sigma^2)
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())

    return BCE + NLNC + KLD


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % args["log_interval"] == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                       100. * batch_idx / len(train_loader),
                       loss.item() / len(data)))

    print('====> Epoch: {} Average loss: {:.4f}'.format(
        epoch, train_loss / len(train_loader.dataset)))
    return train_loss / len(train_loader.dataset)


def test(epoch):
    model.eval()
    test_loss = 0
    comparison = None
    with torch.no_grad():
        for i, (data, _) in enumerate(test_loader):
            data = data.to(device)
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()
            if i == 0:
                n = min(data.size(0), 8)
                comparison = torch.cat([data[:n],
                                        recon_batch.view(args["batch_size"], 1, 28, 28)[:n]])
                comparison = comparison.cpu()  # save_image(comparison.cpu(), ...) in the example

    test_loss /= len(test_loader.dataset)
    print('====> Test set loss: {:.4f}'.format(test_loss))
    return test_loss, comparison


if __name__ == "__main__":
    train_losses, test_losses = [], []
    for epoch in range(1, args["epochs"] + 1):
        train_losses.append(train(epoch))
        test_loss, comparison = test(epoch)
        test_losses.append(test_loss)
        with torch.no_grad():
            sample = torch.randn(64, 20).to(device)
            sample = model.decode(sample).cpu()
            grid = sample.view(64, 1, 28, 28)  # save_image(sample.view(64, 1, 28, 28), ...) in the example

    # Checks of what it computed.
    assert train_losses[-1] < train_losses[0] and test_losses[-1] < test_losses[0], (train_losses, test_losses)
    assert comparison.shape == (16, 1, 28, 28) and comparison.device.type == "cpu"
    assert grid.shape == (64, 1, 28, 28) and grid.device.type == "cpu"
    assert float(grid.min()) >= 1e-4 - 1e-7 and float(grid.max()) <= 1.0 - 1e-4 + 1e-7
    assert next(model.parameters()).device.type == device.type
    data = next(iter(test_loader))[0].to(device)
    with torch.no_grad():
        recon, mu, logvar = model(data)
        kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    assert recon.shape == (128, 784) and mu.shape == logvar.shape == (128, 20) and recon.device == data.device
    assert float(kld) > 0, kld  # KL(q || N(0, I)) is positive
    # The normalizer against math: log(2 atanh(1 - 2 lam) / (1 - 2 lam)) away from 0.5, log(2) + ... near it.
    lam = torch.tensor([0.1, 0.495, 0.9])
    want = [math.log(2 * math.atanh(1 - 2 * v) / (1 - 2 * v)) for v in (0.1, 0.9)]
    got = cont_bern_log_norm(lam).tolist()
    assert abs(got[0] - want[0]) < 1e-5 and abs(got[2] - want[1]) < 1e-5, (got, want)
    assert abs(got[1] - (math.log(2) + 4 / 3 * 0.005 ** 2 + 104 / 45 * 0.005 ** 4)) < 1e-5, got
    print("checks passed")
