/* qpdf's C API. Not linked: Easel calls it through the stubs of
   CLazyTextLibraries, which load libqpdf on the first Display P3 PDF (a
   C++ library with versioned symbols, which patchelf cannot take off the
   start-up list as it takes the text libraries). */
#include <qpdf/qpdf-c.h>
