// A generic file naming a backend: CheckRuntimeLayers.cmake must reject it.
#include "CUDA/CudaBackend.h"
#include "Support/Log.h"
