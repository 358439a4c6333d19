# UI fonts come from Debian's font packages (fonts-dejavu-core, fonts-droid-fallback) and are
# copied next to the viewer at build time; nothing is stored in the repository.
set(MAREY_FONT_FILES
  /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
  /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf
  /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf)
foreach(font ${MAREY_FONT_FILES})
  if(EXISTS ${font})
    get_filename_component(name ${font} NAME)
    configure_file(${font} ${CMAKE_BINARY_DIR}/fonts/${name} COPYONLY)
  else()
    message(WARNING "font ${font} not found: install fonts-dejavu-core and fonts-droid-fallback")
  endif()
endforeach()
