// In-process LLVM for the compile worker: libLLVM-14 loaded with dlopen
// and used through its C API (llvm-c/Core.h, IRReader.h, Analysis.h,
// TargetMachine.h, Transforms/PassBuilder.h). The declarations below are
// those of LLVM 14's headers, written out so that building Stela does not
// need llvm-14-dev; only the library (which opt and llc link) is needed
// at run time.

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <pthread.h>

#include "llvmlib.h"

typedef void *Ref;
typedef int Bool;

static struct {
	Ref (*ContextCreate)(void);
	void (*ContextDispose)(Ref);
	Ref (*CreateMemoryBufferWithMemoryRangeCopy)(const char *, size_t, const char *);
	Bool (*ParseIRInContext)(Ref, Ref, Ref *, char **);
	Bool (*VerifyModule)(Ref, int, char **);
	void (*DisposeModule)(Ref);
	void (*DisposeMessage)(char *);
	const char *(*GetTarget)(Ref);
	Bool (*GetTargetFromTriple)(const char *, Ref *, char **);
	Ref (*CreateTargetMachine)(Ref, const char *, const char *, const char *, int, int, int);
	void (*DisposeTargetMachine)(Ref);
	Ref (*CreatePassBuilderOptions)(void);
	void (*PassBuilderOptionsSetLoopVectorization)(Ref, Bool);
	void (*PassBuilderOptionsSetSLPVectorization)(Ref, Bool);
	void (*PassBuilderOptionsSetLoopUnrolling)(Ref, Bool);
	void (*PassBuilderOptionsSetLoopInterleaving)(Ref, Bool);
	void (*DisposePassBuilderOptions)(Ref);
	Ref (*RunPasses)(Ref, const char *, Ref, Ref);
	char *(*GetErrorMessage)(Ref);
	void (*DisposeErrorMessage)(char *);
	Bool (*TargetMachineEmitToMemoryBuffer)(Ref, Ref, int, char **, Ref *);
	const char *(*GetBufferStart)(Ref);
	size_t (*GetBufferSize)(Ref);
	void (*DisposeMemoryBuffer)(Ref);
	void (*InitializeX86TargetInfo)(void);
	void (*InitializeX86Target)(void);
	void (*InitializeX86TargetMC)(void);
	void (*InitializeX86AsmPrinter)(void);
} L;

static char open_err[512];
static int opened; // 1 loaded, -1 failed

// Enumerators of LLVM 14's C API.
enum {
	VerifierReturnStatus = 2,      // LLVMReturnStatusAction
	RelocPIC = 2,                  // LLVMRelocPIC
	CodeModelDefault = 0,          // LLVMCodeModelDefault
	ObjectFile = 1,                // LLVMObjectFile
};

int stela_llvm_open(const char *const *paths, int n, char **err) {
	if (opened) {
		if (opened < 0)
			*err = strdup(open_err);
		return opened > 0;
	}
	void *h = NULL;
	for (int i = 0; i < n && !h; i++)
		h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(open_err, sizeof open_err, "cannot load libLLVM-14: %s", dlerror());
		opened = -1;
		*err = strdup(open_err);
		return 0;
	}
#define SYM(f)                                                                    \
	if (!(*(void **)&L.f = dlsym(h, "LLVM" #f))) {                             \
		snprintf(open_err, sizeof open_err, "libLLVM-14 has no LLVM%s", #f); \
		opened = -1;                                                       \
		*err = strdup(open_err);                                           \
		return 0;                                                          \
	}
	SYM(ContextCreate) SYM(ContextDispose) SYM(CreateMemoryBufferWithMemoryRangeCopy)
	SYM(ParseIRInContext) SYM(VerifyModule) SYM(DisposeModule) SYM(DisposeMessage)
	SYM(GetTarget) SYM(GetTargetFromTriple) SYM(CreateTargetMachine) SYM(DisposeTargetMachine)
	SYM(CreatePassBuilderOptions) SYM(PassBuilderOptionsSetLoopVectorization)
	SYM(PassBuilderOptionsSetSLPVectorization) SYM(PassBuilderOptionsSetLoopUnrolling)
	SYM(PassBuilderOptionsSetLoopInterleaving) SYM(DisposePassBuilderOptions)
	SYM(RunPasses) SYM(GetErrorMessage) SYM(DisposeErrorMessage)
	SYM(TargetMachineEmitToMemoryBuffer) SYM(GetBufferStart) SYM(GetBufferSize)
	SYM(DisposeMemoryBuffer) SYM(InitializeX86TargetInfo) SYM(InitializeX86Target)
	SYM(InitializeX86TargetMC) SYM(InitializeX86AsmPrinter)
#undef SYM
	L.InitializeX86TargetInfo();
	L.InitializeX86Target();
	L.InitializeX86TargetMC();
	L.InitializeX86AsmPrinter();
	opened = 1;
	return 1;
}

static char *take(char *msg, const char *what) {
	size_t n = strlen(what) + (msg ? strlen(msg) : 0) + 3;
	char *s = malloc(n);
	snprintf(s, n, "%s: %s", what, msg ? msg : "failed");
	if (msg)
		L.DisposeMessage(msg);
	return s;
}

// stela_llvm_compile: what `opt -O<level>` then `llc -O<level>
// -filetype=obj -relocation-model=pic` do, in this thread, in a context
// of its own. On success *obj (malloc'd, *objlen bytes) is the object
// file; on failure *err (malloc'd) says which step failed.
int stela_llvm_compile(const char *ll, size_t lllen, const char *cpu, const char *features,
		       int level, char **obj, size_t *objlen, char **err) {
	*obj = NULL;
	*err = NULL;
	Ref ctx = L.ContextCreate();
	Ref buf = L.CreateMemoryBufferWithMemoryRangeCopy(ll, lllen, "program.ll");
	Ref mod = NULL, tm = NULL, out = NULL;
	char *msg = NULL;
	int ok = 0;
	if (L.ParseIRInContext(ctx, buf, &mod, &msg)) { // takes buf
		*err = take(msg, "parse");
		goto done;
	}
	if (L.VerifyModule(mod, VerifierReturnStatus, &msg)) {
		*err = take(msg, "verify");
		goto done;
	}
	if (msg) {
		L.DisposeMessage(msg);
		msg = NULL;
	}
	const char *triple = L.GetTarget(mod);
	Ref target = NULL;
	if (L.GetTargetFromTriple(triple, &target, &msg)) {
		*err = take(msg, "target");
		goto done;
	}
	tm = L.CreateTargetMachine(target, triple, cpu, features, level, RelocPIC, CodeModelDefault);
	if (!tm) {
		*err = take(NULL, "target machine");
		goto done;
	}
	char pipeline[32];
	snprintf(pipeline, sizeof pipeline, "default<O%d>", level);
	Ref opts = L.CreatePassBuilderOptions();
	// As opt -O2 and -O3 set them (LLVM 14's PipelineTuningOptions
	// leave SLP vectorization off).
	L.PassBuilderOptionsSetLoopVectorization(opts, level > 1);
	L.PassBuilderOptionsSetSLPVectorization(opts, level > 1);
	L.PassBuilderOptionsSetLoopUnrolling(opts, 1);
	L.PassBuilderOptionsSetLoopInterleaving(opts, 1);
	Ref e = L.RunPasses(mod, pipeline, tm, opts);
	L.DisposePassBuilderOptions(opts);
	if (e) {
		char *m = L.GetErrorMessage(e);
		size_t n = strlen(m) + 16;
		*err = malloc(n);
		snprintf(*err, n, "passes: %s", m);
		L.DisposeErrorMessage(m);
		goto done;
	}
	if (L.TargetMachineEmitToMemoryBuffer(tm, mod, ObjectFile, &msg, &out)) {
		*err = take(msg, "codegen");
		goto done;
	}
	*objlen = L.GetBufferSize(out);
	*obj = malloc(*objlen ? *objlen : 1);
	memcpy(*obj, L.GetBufferStart(out), *objlen);
	L.DisposeMemoryBuffer(out);
	ok = 1;
done:
	if (tm)
		L.DisposeTargetMachine(tm);
	if (mod)
		L.DisposeModule(mod);
	L.ContextDispose(ctx);
	return ok;
}
