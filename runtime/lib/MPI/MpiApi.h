//===- MPI/MpiApi.h - Open MPI, loaded with dlopen --------------*- C++ -*-===//
//
// The runtime is never linked against MPI: like CUDA's driver, Open MPI's libmpi is opened with
// dlopen when the process was started by an MPI launcher (mpirun, srun), and only the entry points
// below are resolved. The handle types and the predefined objects follow Open MPI's ABI (4.x and
// 5.x: handles are pointers to the library's predefined objects, whose addresses are resolved by
// name); the unit test MpiApiTest compares these declarations with <mpi.h> where it is installed.
//
//===----------------------------------------------------------------------===//
#ifndef CLUSTRIX_RT_MPI_MPIAPI_H
#define CLUSTRIX_RT_MPI_MPIAPI_H

#include <cstddef>
#include <string>

namespace clustrix {
namespace rt {
namespace mpi {

using Comm = void *;
using Datatype = void *;
using Request = void *;
using Errhandler = void *;

/// Open MPI's MPI_Status.
struct Status {
  int Source;
  int Tag;
  int Error;
  int Cancelled;
  size_t UCount;
};

constexpr int Success = 0;
constexpr int ThreadSerialized = 2; ///< MPI_THREAD_SERIALIZED
constexpr int ThreadMultiple = 3;   ///< MPI_THREAD_MULTIPLE

/// The resolved library. Loaded is false, with Error, when libmpi is absent or incomplete.
struct Api {
  bool Loaded = false;
  std::string Error;
  std::string Library; ///< The file that was opened.

  int (*Init_thread)(int *, char ***, int, int *) = nullptr;
  int (*Initialized)(int *) = nullptr;
  int (*Finalize)() = nullptr;
  int (*Comm_rank)(Comm, int *) = nullptr;
  int (*Comm_size)(Comm, int *) = nullptr;
  int (*Comm_dup)(Comm, Comm *) = nullptr;
  int (*Comm_set_errhandler)(Comm, Errhandler) = nullptr;
  int (*Isend)(const void *, int, Datatype, int, int, Comm, Request *) = nullptr;
  int (*Recv)(void *, int, Datatype, int, int, Comm, Status *) = nullptr;
  int (*Iprobe)(int, int, Comm, int *, Status *) = nullptr;
  int (*Get_count)(const Status *, Datatype, int *) = nullptr;
  int (*Test)(Request *, int *, Status *) = nullptr;
  int (*Request_free)(Request *) = nullptr;
  int (*Get_processor_name)(char *, int *) = nullptr;
  int (*Error_string)(int, char *, int *) = nullptr;

  Comm World = nullptr;          ///< MPI_COMM_WORLD
  Datatype Byte = nullptr;       ///< MPI_BYTE
  Errhandler ErrorsReturn = nullptr; ///< MPI_ERRORS_RETURN

  /// Opens CLUSTRIX_MPI_LIBRARY, else libmpi.so.40 (Open MPI 3 to 5), once per process.
  static Api &get();
  /// MPI's text for an error code.
  std::string errorText(int Code) const;
};

} // namespace mpi
} // namespace rt
} // namespace clustrix

#endif
