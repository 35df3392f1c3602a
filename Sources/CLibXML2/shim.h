#include <libxml/xmlversion.h>
/* Swift's Foundation ships its own ICU; libxml2's optional ICU include would
   clash with it, and Easel never touches libxml2's encoding handlers. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
