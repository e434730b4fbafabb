#include <stddef.h>

int stela_llvm_open(const char *const *paths, int n, char **err);
int stela_llvm_compile(const char *ll, size_t lllen, const char *cpu, const char *features,
		       int level, int nparts, int part, const char *bcpath, char **obj, size_t *objlen, char **err);
