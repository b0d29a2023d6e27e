//===- MPI/MpiBackend.h - The devices of other MPI ranks --------*- C++ -*-===//
//
// When the program was started by an MPI launcher, rank 0 runs main and every other rank serves
// chunks: their devices join rank 0's lanes as rankN:cpu0, rankN:cuda0... A loop with a GPU form
// sends a remote lane's chunk its read boxes, and the rank runs the kernel text (on CUDA, or on its
// CPU compiled by the host compiler) and sends back the write boxes and reduction partials.
// Open MPI is loaded with dlopen; without a launcher, or without MPI, nothing here does anything.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_MPI_MPIBACKEND_H
#define CLUSTRIX_RT_MPI_MPIBACKEND_H

#include "Backend/Backend.h"

namespace clustrix {
namespace rt {

/// The MPI backend, as listed in Backends.def.
const Backend &mpiBackend();

} // namespace rt
} // namespace clustrix

#endif
