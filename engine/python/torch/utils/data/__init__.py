# torch.utils.data for DeviceScope: datasets, samplers, DataLoader (pin_memory pins batches on the host).
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset", "RandomSampler",
           "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset",
           "default_collate", "default_convert", "get_worker_info", "random_split"]
