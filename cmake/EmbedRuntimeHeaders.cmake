# Writes the text of the runtime's public headers as one C++ raw string literal, for the
# compiler's macro shields (lib/Rewrite/FileRewriter.cpp: the names the generated code may use).
#   cmake -DHEADERS="a.h|b.h" -DOUT=RuntimeHeaders.inc -P EmbedRuntimeHeaders.cmake
string(REPLACE "|" ";" HEADERS "${HEADERS}")
set(Text "")
foreach(H ${HEADERS})
  file(READ ${H} Part)
  string(APPEND Text "${Part}\n")
endforeach()
file(WRITE ${OUT}.tmp "R\"__clx_rt_headers(${Text})__clx_rt_headers\"\n")
file(RENAME ${OUT}.tmp ${OUT})
