# torch.onnx: importable (scripts import it at the top), but DeviceScope does not export ONNX graphs: it runs
# the model on its own engine to show placement and copies, and records no graph to export.


class OnnxExporterError(RuntimeError):
    pass


def export(model, args=(), f=None, *a, **kw):
    raise NotImplementedError("DeviceScope does not export ONNX: torch.onnx.export needs PyTorch's tracer and "
                              "ONNX exporter. Run the export with real PyTorch; the model's state_dict saved here "
                              "(torch.save) loads there.")


def dynamo_export(*a, **kw):
    export(None)


def is_in_onnx_export():
    return False


def is_onnxrt_backend_supported():
    return False
