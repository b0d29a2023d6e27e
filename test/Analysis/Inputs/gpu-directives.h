// A callee in a header, its branches chosen by the host's macros.
static inline double offset(double v) {
#if defined(__CUDA_ARCH__)
  return v + 100;
#elif defined(USE_HALF)
  return v + 0.5;
#else
  return v + 1;
#endif
}
