#include <libxml/xmlversion.h>
/* Swift's Foundation ships its own ICU; libxml2's optional ICU include would
   clash with it, and Easel never touches libxml2's encoding handlers. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

/* xmlFree is a global function pointer, which Swift 6 refuses to read as
   shared mutable state: a call through it, in C. */
static inline void easel_xml_free(void *p) { xmlFree(p); }
