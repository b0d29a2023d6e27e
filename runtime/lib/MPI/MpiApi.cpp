//===- MPI/MpiApi.cpp - Open MPI, loaded with dlopen ----------------------===//
#include "MPI/MpiApi.h"

#include <cstdlib>
#include <dlfcn.h>

namespace clustrix {
namespace rt {
namespace mpi {

namespace {

template <class F> bool resolve(void *H, const char *Name, F &Out, std::string &Missing) {
  Out = reinterpret_cast<F>(::dlsym(H, Name));
  if (!Out && Missing.empty())
    Missing = Name;
  return Out != nullptr;
}

void *object(void *H, const char *Name, std::string &Missing) {
  void *P = ::dlsym(H, Name);
  if (!P && Missing.empty())
    Missing = Name;
  return P;
}

} // namespace

Api &Api::get() {
  static Api *A = [] {
    auto *R = new Api();
    const char *Env = std::getenv("CLUSTRIX_MPI_LIBRARY");
    std::string Name = Env && *Env ? Env : "libmpi.so.40";
    // Open MPI loads its components with dlopen, and they need libmpi's symbols: RTLD_GLOBAL.
    void *H = ::dlopen(Name.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!H) {
      const char *E = ::dlerror();
      R->Error = "cannot load " + Name + (E ? std::string(": ") + E : std::string());
      return R;
    }
    R->Library = Name;
    std::string Missing;
    resolve(H, "MPI_Init_thread", R->Init_thread, Missing);
    resolve(H, "MPI_Initialized", R->Initialized, Missing);
    resolve(H, "MPI_Finalize", R->Finalize, Missing);
    resolve(H, "MPI_Comm_rank", R->Comm_rank, Missing);
    resolve(H, "MPI_Comm_size", R->Comm_size, Missing);
    resolve(H, "MPI_Comm_dup", R->Comm_dup, Missing);
    resolve(H, "MPI_Comm_set_errhandler", R->Comm_set_errhandler, Missing);
    resolve(H, "MPI_Isend", R->Isend, Missing);
    resolve(H, "MPI_Recv", R->Recv, Missing);
    resolve(H, "MPI_Iprobe", R->Iprobe, Missing);
    resolve(H, "MPI_Get_count", R->Get_count, Missing);
    resolve(H, "MPI_Test", R->Test, Missing);
    resolve(H, "MPI_Request_free", R->Request_free, Missing);
    resolve(H, "MPI_Get_processor_name", R->Get_processor_name, Missing);
    resolve(H, "MPI_Error_string", R->Error_string, Missing);
    R->World = object(H, "ompi_mpi_comm_world", Missing);
    R->Byte = object(H, "ompi_mpi_byte", Missing);
    R->ErrorsReturn = object(H, "ompi_mpi_errors_return", Missing);
    if (!Missing.empty()) {
      R->Error = Name + " lacks " + Missing + " (an Open MPI library is needed)";
      return R;
    }
    R->Loaded = true;
    return R;
  }();
  return *A;
}

std::string Api::errorText(int Code) const {
  char Buf[512];
  int Len = 0;
  if (Error_string && Error_string(Code, Buf, &Len) == Success && Len > 0)
    return std::string(Buf, static_cast<size_t>(Len)) + " (" + std::to_string(Code) + ")";
  return "MPI error " + std::to_string(Code);
}

} // namespace mpi
} // namespace rt
} // namespace clustrix
