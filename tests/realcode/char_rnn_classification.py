# source: https://pytorch.org/tutorials/intermediate/char_rnn_classification_tutorial.html
# changed: the names/*.txt download replaced by 4 synthetic "languages" of 24 names each (a random stem with a
#          language-typical suffix or prefix); hidden size 48, 10 epochs, batch 16; no matplotlib confusion
#          plot; the one-hot tensors and the model go to the accelerator when there is one; checks at the end
#          (loss falls, accuracy on the training names, shapes, devices).
# reference: real
import random
import string
import time

import torch
import torch.nn as nn

random.seed(3)
torch.manual_seed(3)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

allowed_characters = string.ascii_letters + " .,;'"
n_letters = len(allowed_characters)


def letterToIndex(letter):
    return allowed_characters.find(letter)


# Turn a line into a <line_length x 1 x n_letters>,
# or an array of one-hot letter vectors
def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


# ---- synthetic NamesDataset: a stem plus what each language puts around it
affixes = {"Italian": ("", "ini"), "Russian": ("", "ovsky"), "Irish": ("O'", ""), "Japanese": ("", "moto")}
labels_uniq = list(affixes)
data = []
for label, (prefix, suffix) in affixes.items():
    for _ in range(24):
        stem = random.choice(string.ascii_uppercase) + "".join(random.choice("aeioulnrst") for _ in range(random.randint(2, 4)))
        data.append((prefix + stem + suffix, label))
data_tensors = [lineToTensor(name).to(device) for name, _ in data]
labels = [label for _, label in data]
label_tensors = [torch.tensor([labels_uniq.index(label)], dtype=torch.long, device=device) for label in labels]
print(f"loaded {len(data)} items of data, e.g. {data[0]} -> {tuple(data_tensors[0].shape)}")


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(CharRNN, self).__init__()

        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)

        return output


n_hidden = 48
rnn = CharRNN(n_letters, n_hidden, len(labels_uniq)).to(device)
print(rnn)


def label_from_output(output, output_labels):
    top_n, top_i = output.topk(1)
    label_i = top_i[0].item()
    return output_labels[label_i], label_i


input = lineToTensor('Albert').to(device)
output = rnn(input)  # this is equivalent to ``output = rnn.forward(input)``
print(output)
print(label_from_output(output, labels_uniq))


def train(rnn, n_epoch=10, n_batch_size=16, report_every=2, learning_rate=0.2, criterion=nn.NLLLoss()):
    """
    Learn on a batch of training_data for a specified number of iterations and reporting thresholds
    """
    # Keep track of losses for plotting
    current_loss = 0
    all_losses = []
    rnn.train()
    optimizer = torch.optim.SGD(rnn.parameters(), lr=learning_rate)

    start = time.time()
    print(f"training on data set with n = {len(data)}")

    for iter in range(1, n_epoch + 1):
        rnn.zero_grad()  # clear the gradients

        # create some minibatches
        # we cannot use dataloaders because each of our names is a different length
        batches = list(range(len(data)))
        random.shuffle(batches)
        batches = [batches[i:i + n_batch_size] for i in range(0, len(batches), n_batch_size)]

        for idx, batch in enumerate(batches):
            batch_loss = 0
            for i in batch:  # for each example in this batch
                output = rnn(data_tensors[i])
                loss = criterion(output, label_tensors[i])
                batch_loss += loss

            # optimize parameters
            batch_loss.backward()
            nn.utils.clip_grad_norm_(rnn.parameters(), 3)
            optimizer.step()
            optimizer.zero_grad()

            current_loss += batch_loss.item() / len(batch)

        all_losses.append(current_loss / len(batches))
        if iter % report_every == 0:
            print(f"{iter} ({iter / n_epoch:.0%}): \t average batch loss = {all_losses[-1]}")
        current_loss = 0

    return all_losses


all_losses = train(rnn)

rnn.eval()
correct = 0
with torch.no_grad():
    for i in range(len(data)):
        guess, guess_i = label_from_output(rnn(data_tensors[i]), labels_uniq)
        correct += guess == labels[i]
accuracy = correct / len(data)
print(f"training accuracy {accuracy:.2f}")

# Checks of what it computed.
assert all_losses[-1] < all_losses[0] * 0.5, all_losses
assert accuracy >= 0.9, accuracy
assert output.shape == (1, len(labels_uniq)) and output.device.type == device.type
assert rnn.rnn.weight_ih_l0.shape == (n_hidden, n_letters) and rnn.rnn.weight_hh_l0.device.type == device.type
print("checks passed")
