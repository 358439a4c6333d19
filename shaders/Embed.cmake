# Writes the GLSL files of this folder into a C++ header as raw string literals, so the viewer
# runs from any directory. Invoked at build time: cmake -DDIR=... -DOUT=... -P Embed.cmake
file(GLOB shaders "${DIR}/*.vert" "${DIR}/*.frag")
list(SORT shaders)
set(content "// Generated from shaders/ by Embed.cmake; do not edit.\n#pragma once\nnamespace marey::shaders {\n")
foreach(shader ${shaders})
  get_filename_component(name "${shader}" NAME)
  string(MAKE_C_IDENTIFIER "${name}" identifier)
  file(READ "${shader}" source)
  string(APPEND content "inline constexpr const char* k_${identifier} = R\"glsl(${source})glsl\";\n")
endforeach()
string(APPEND content "}  // namespace marey::shaders\n")
file(WRITE "${OUT}.tmp" "${content}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
