# write_if_changed(<file> <text>): writes <text> to <file> only when it
# differs from what is there, so that an unchanged generated header
# rebuilds nothing. Included by the Embed*.cmake scripts.
function(write_if_changed file text)
  set(old "")
  if(EXISTS ${file})
    file(READ ${file} old)
  endif()
  if(NOT "${old}" STREQUAL "${text}")
    file(WRITE ${file} "${text}")
  endif()
endfunction()
