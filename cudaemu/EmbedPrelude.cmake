# Writes KernelPrelude.h, with KernelAbi.h inserted at its marker, as a C++ raw string literal
# (the text the emulated NVRTC puts before every kernel).
#   cmake -DPRELUDE=KernelPrelude.h -DABI=KernelAbi.h -DOUT=KernelPrelude.inc -P EmbedPrelude.cmake
file(READ ${PRELUDE} Text)
file(READ ${ABI} Abi)
string(REPLACE "// @KERNEL_ABI@ (KernelAbi.h is inserted here)" "${Abi}" Text "${Text}")
file(WRITE ${OUT}.tmp "R\"__clx_prelude(${Text})__clx_prelude\"\n")
file(RENAME ${OUT}.tmp ${OUT})
