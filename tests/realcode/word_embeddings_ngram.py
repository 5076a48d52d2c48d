# source: https://pytorch.org/tutorials/beginner/nlp/word_embeddings_tutorial.html (Word Embeddings: Encoding
#         Lexical Semantics: nn.Embedding lookup, N-Gram Language Modeling, the CBOW exercise)
# changed: the model and the index tensors live on the GPU when one exists (the tutorial runs on the CPU); the
#          CBOW exercise's empty class is filled in (sum of the context embeddings -> Linear -> log_softmax) and
#          trained 10 epochs like the N-gram model, with lr 0.01; checks at the end (losses fall, shapes, devices,
#          the embedding lookup equals the weight row).
# reference: real
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)  # 2 words in vocab, 5 dimensional embeddings
lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
hello_embed = embeds(lookup_tensor)
print(hello_embed)

CONTEXT_SIZE = 2
EMBEDDING_DIM = 10
# We will use Shakespeare Sonnet 2
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:
Then being asked, where all thy beauty lies,
Where all the treasure of thy lusty days;
To say, within thine own deep sunken eyes,
Were an all-eating shame, and thriftless praise.
How much more praise deserv'd thy beauty's use,
If thou couldst answer 'This fair child of mine
Shall sum my count, and make my old excuse,'
Proving his beauty by succession thine!
This were to be new made when thou art old,
And see thy blood warm when thou feel'st it cold.""".split()
# we should tokenize the input, but we will ignore that for now
# build a list of tuples.
# Each tuple is ([ word_i-CONTEXT_SIZE, ..., word_i-1 ], target word)
ngrams = [
    (
        [test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)],
        test_sentence[i]
    )
    for i in range(CONTEXT_SIZE, len(test_sentence))
]
# Print the first 3, just so you can see what they look like.
print(ngrams[:3])

vocab = set(test_sentence)
word_to_ix = {word: i for i, word in enumerate(vocab)}


class NGramLanguageModeler(nn.Module):

    def __init__(self, vocab_size, embedding_dim, context_size):
        super(NGramLanguageModeler, self).__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 128)
        self.linear2 = nn.Linear(128, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs


losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE).to(device)
optimizer = optim.SGD(model.parameters(), lr=0.001)

for epoch in range(10):
    total_loss = 0
    for context, target in ngrams:

        # Step 1. Prepare the inputs to be passed to the model (i.e, turn the words
        # into integer indices and wrap them in tensors)
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long).to(device)

        # Step 2. Recall that torch *accumulates* gradients. Before passing in a
        # new instance, you need to zero out the gradients from the old
        # instance
        model.zero_grad()

        # Step 3. Run the forward pass, getting log probabilities over next
        # words
        log_probs = model(context_idxs)

        # Step 4. Compute your loss function. (Again, Torch wants the target
        # word wrapped in a tensor)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long).to(device))

        # Step 5. Do the backward pass and update the gradient
        loss.backward()
        optimizer.step()

        # Get the Python number from a 1-element Tensor by calling tensor.item()
        total_loss += loss.item()
    losses.append(total_loss)
print(losses)  # The loss decreased every iteration over the training data!

# To get the embedding of a particular word, e.g. "beauty"
print(model.embeddings.weight[word_to_ix["beauty"]])

# Exercise: Computing Word Embeddings: Continuous Bag-of-Words
CONTEXT_SIZE = 2  # 2 words to the left, 2 to the right
raw_text = """We are about to study the idea of a computational process.
Computational processes are abstract beings that inhabit computers.
As they evolve, processes manipulate other abstract things called data.
The evolution of a process is directed by a pattern of rules
called a program. People create programs to direct processes. In effect,
we conjure the spirits of the computer with our spells.""".split()

# By deriving a set from `raw_text`, we deduplicate the array
vocab = set(raw_text)
vocab_size = len(vocab)

word_to_ix = {word: i for i, word in enumerate(vocab)}
data = []
for i in range(CONTEXT_SIZE, len(raw_text) - CONTEXT_SIZE):
    context = (
        [raw_text[i - j - 1] for j in range(CONTEXT_SIZE)]
        + [raw_text[i + j + 1] for j in range(CONTEXT_SIZE)]
    )
    target = raw_text[i]
    data.append((context, target))
print(data[:5])


class CBOW(nn.Module):

    def __init__(self, vocab_size, embedding_dim):
        super(CBOW, self).__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear = nn.Linear(embedding_dim, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).sum(dim=0, keepdim=True)
        return F.log_softmax(self.linear(embeds), dim=1)


# Create your model and train. Here are some functions to help you make
# the data ready for use by your module.


def make_context_vector(context, word_to_ix):
    idxs = [word_to_ix[w] for w in context]
    return torch.tensor(idxs, dtype=torch.long)


first_context = make_context_vector(data[0][0], word_to_ix)  # example

cbow = CBOW(vocab_size, EMBEDDING_DIM).to(device)
cbow_optimizer = optim.SGD(cbow.parameters(), lr=0.01)
cbow_losses = []
for epoch in range(10):
    total_loss = 0
    for context, target in data:
        cbow.zero_grad()
        log_probs = cbow(make_context_vector(context, word_to_ix).to(device))
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long).to(device))
        loss.backward()
        cbow_optimizer.step()
        total_loss += loss.item()
    cbow_losses.append(total_loss)
print(cbow_losses)

# Checks of what it computed.
assert hello_embed.shape == (1, 5) and torch.equal(hello_embed[0], embeds.weight[0])
assert len(ngrams) == len(test_sentence) - CONTEXT_SIZE and ngrams[0] == (['forty', 'When'], 'winters')
assert all(b < a for a, b in zip(losses, losses[1:])), losses  # falls every epoch, as the tutorial says
assert all(b < a for a, b in zip(cbow_losses, cbow_losses[1:])) and cbow_losses[-1] < 0.8 * cbow_losses[0]
assert model.embeddings.weight.shape == (len(set(test_sentence)), EMBEDDING_DIM)
assert model.embeddings.weight.device.type == device.type and model.embeddings.weight.grad.device.type == device.type
assert log_probs.shape == (1, vocab_size) and log_probs.device.type == device.type
assert abs(float(log_probs.exp().sum()) - 1) < 1e-5
assert first_context.tolist() == [word_to_ix[w] for w in ['are', 'We', 'to', 'study']]
assert data[0] == (['are', 'We', 'to', 'study'], 'about') and first_context.device.type == "cpu"
print("checks passed")
