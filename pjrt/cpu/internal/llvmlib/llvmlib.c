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
	// For splitting a module (split below).
	Ref (*GetFirstFunction)(Ref);
	Ref (*GetNextFunction)(Ref);
	Ref (*GetFirstGlobal)(Ref);
	Ref (*GetNextGlobal)(Ref);
	Ref (*GetFirstGlobalAlias)(Ref);
	Ref (*GetFirstGlobalIFunc)(Ref);
	Ref (*GetFirstBasicBlock)(Ref);
	Ref (*GetNextBasicBlock)(Ref);
	Ref (*GetFirstInstruction)(Ref);
	Ref (*GetNextInstruction)(Ref);
	int (*GetNumOperands)(Ref);
	Ref (*GetOperand)(Ref, unsigned);
	Ref (*BasicBlockAsValue)(Ref);
	Ref (*IsAPHINode)(Ref);
	Ref (*IsAFunction)(Ref);
	Ref (*IsAGlobalVariable)(Ref);
	Ref (*IsAConstantExpr)(Ref);
	Ref (*IsAConstant)(Ref);
	Bool (*IsDeclaration)(Ref);
	int (*GetLinkage)(Ref);
	void (*SetLinkage)(Ref, int);
	void (*SetVisibility)(Ref, int);
	Bool (*IsGlobalConstant)(Ref);
	Ref (*GlobalGetValueType)(Ref);
	Ref (*GetComdat)(Ref);
	unsigned (*GetEnumAttributeKindForName)(const char *, size_t);
	Ref (*GetEnumAttributeAtIndex)(Ref, unsigned, unsigned);
	const char *(*GetValueName2)(Ref, size_t *);
	void (*SetValueName2)(Ref, const char *, size_t);
	void (*ReplaceAllUsesWith)(Ref, Ref);
	Ref (*AddFunction)(Ref, const char *, Ref);
	Ref (*AddGlobal)(Ref, Ref, const char *);
	void (*DeleteFunction)(Ref);
	void (*DeleteGlobal)(Ref);
	unsigned (*GetFunctionCallConv)(Ref);
	void (*SetFunctionCallConv)(Ref, unsigned);
	Ref (*GetInitializer)(Ref);
	int (*WriteBitcodeToFile)(Ref, const char *);
} L;

static char open_err[512];
static int opened; // 1 loaded, -1 failed

// Enumerators of LLVM 14's C API.
enum {
	VerifierReturnStatus = 2,      // LLVMReturnStatusAction
	RelocPIC = 2,                  // LLVMRelocPIC
	CodeModelDefault = 0,          // LLVMCodeModelDefault
	ObjectFile = 1,                // LLVMObjectFile
	ExternalLinkage = 0,           // LLVMExternalLinkage
	InternalLinkage = 8,           // LLVMInternalLinkage
	PrivateLinkage = 9,            // LLVMPrivateLinkage
	HiddenVisibility = 1,          // LLVMHiddenVisibility
	FunctionIndex = ~0u,           // LLVMAttributeFunctionIndex
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
	SYM(GetFirstFunction) SYM(GetNextFunction) SYM(GetFirstGlobal) SYM(GetNextGlobal)
	SYM(GetFirstGlobalAlias) SYM(GetFirstGlobalIFunc) SYM(GetFirstBasicBlock)
	SYM(GetNextBasicBlock) SYM(GetFirstInstruction) SYM(GetNextInstruction)
	SYM(GetNumOperands) SYM(GetOperand) SYM(IsAFunction) SYM(IsAGlobalVariable)
	SYM(IsAConstantExpr) SYM(IsAConstant) SYM(IsDeclaration) SYM(GetLinkage) SYM(SetLinkage)
	SYM(SetVisibility) SYM(IsGlobalConstant) SYM(GlobalGetValueType) SYM(GetComdat)
	SYM(GetEnumAttributeKindForName) SYM(GetEnumAttributeAtIndex) SYM(GetValueName2)
	SYM(SetValueName2) SYM(ReplaceAllUsesWith) SYM(AddFunction) SYM(AddGlobal)
	SYM(DeleteFunction) SYM(DeleteGlobal) SYM(GetFunctionCallConv) SYM(SetFunctionCallConv)
	SYM(GetInitializer) SYM(WriteBitcodeToFile) SYM(BasicBlockAsValue) SYM(IsAPHINode)
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


/* ---- Splitting a module into parts compiled in parallel ----

   Every thread parses the whole module and keeps the definitions of its
   part: the same choice in every thread, made from the module alone.
   Functions that reference each other directly (a kernel, its loop body,
   its parallel chunk) form a group and stay together, so that what opt
   would inline stays inlinable; a function with external linkage (the
   entry, which calls every kernel) does not join its callees' groups, and
   an alwaysinline helper is copied into every part (internal, as it is).
   Groups go to parts largest first, each to the least loaded (counted in
   estimated compile cost: instructions, and a fixed cost per loop,
   fn_weight). A kept function that a function of another part
   references becomes a hidden external symbol (the parts are linked into
   one shared object); one of another part becomes a declaration.
   Variables other than local constants are defined in part 0 only;
   llvm.global_ctors/dtors stay there too. A module with aliases, ifuncs,
   comdats or linkages other than external, internal and private is not
   split (part 0 compiles it whole). */

typedef struct {
	Ref *fn;      // the definitions, sorted by address
	int n;
	int *parent;  // union-find over fn
	long *size;   // per function: its estimated cost (fn_weight)
	char *inl;    // alwaysinline and local: copied into every part
	char *ext;    // external linkage
} graph;

static int local(int linkage) { return linkage == InternalLinkage || linkage == PrivateLinkage; }

// zalloc is calloc of n elements (at least one).
static void *zalloc(int n, size_t size) { return calloc(n > 0 ? (size_t)n : 1, size); }

static int cmpref(const void *a, const void *b) {
	Ref x = *(Ref const *)a, y = *(Ref const *)b;
	return x < y ? -1 : x > y;
}

static int find_fn(graph *g, Ref f) {
	Ref *p = bsearch(&f, g->fn, g->n, sizeof(Ref), cmpref);
	return p ? (int)(p - g->fn) : -1;
}

static int root(graph *g, int i) {
	while (g->parent[i] != i)
		i = g->parent[i] = g->parent[g->parent[i]];
	return i;
}

/* Calls visit(g, user, fn index, arg) for each defined function that the
   operand v (an instruction's operand, maybe a constant expression over
   it) names. */
static void operand_refs(graph *g, Ref v, int user, int depth, void (*visit)(graph *, int, int, void *), void *arg) {
	if (!v || depth > 8)
		return;
	if (L.IsAFunction(v)) {
		int j = find_fn(g, v);
		if (j >= 0)
			visit(g, user, j, arg);
		return;
	}
	if (L.IsAConstantExpr(v) || (L.IsAConstant(v) && !L.IsAGlobalVariable(v))) {
		int n = L.GetNumOperands(v);
		for (int k = 0; k < n; k++)
			operand_refs(g, L.GetOperand(v, k), user, depth + 1, visit, arg);
	}
}

static void each_ref(graph *g, int i, void (*visit)(graph *, int, int, void *), void *arg) {
	for (Ref bb = L.GetFirstBasicBlock(g->fn[i]); bb; bb = L.GetNextBasicBlock(bb))
		for (Ref in = L.GetFirstInstruction(bb); in; in = L.GetNextInstruction(in)) {
			int n = L.GetNumOperands(in);
			for (int k = 0; k < n; k++)
				operand_refs(g, L.GetOperand(in, k), i, 0, visit, arg);
		}
}

static void join(graph *g, int i, int j, void *arg) {
	(void)arg;
	if (g->ext[i] || g->inl[j] || g->inl[i])
		return;
	g->parent[root(g, i)] = root(g, j);
}

typedef struct {
	int *part; // per function: its part, -1 for copies
	char *cross;
} crossing;

static void mark_cross(graph *g, int i, int j, void *arg) {
	crossing *c = arg;
	if (i < 0 || c->part[i] < 0 || c->part[j] < 0 || c->part[i] != c->part[j])
		c->cross[j] = 1;
}

/* Replaces the global value v by a declaration of the same name and type:
   external, and hidden where v was local (the part that defines it makes
   it a hidden symbol). One that was external keeps the default
   visibility: a hidden reference would hide the definition from the
   shared object's users (the linker keeps the most constraining). */
static void declare(Ref mod, Ref v, int is_fn) {
	int was_local = local(L.GetLinkage(v));
	size_t len;
	const char *nm = L.GetValueName2(v, &len);
	char *name = malloc(len + 1);
	memcpy(name, nm, len);
	name[len] = 0;
	Ref d;
	if (is_fn) {
		d = L.AddFunction(mod, "", L.GlobalGetValueType(v));
		L.SetFunctionCallConv(d, L.GetFunctionCallConv(v));
	} else {
		d = L.AddGlobal(mod, L.GlobalGetValueType(v), "");
	}
	L.ReplaceAllUsesWith(v, d);
	if (is_fn)
		L.DeleteFunction(v);
	else
		L.DeleteGlobal(v);
	L.SetValueName2(d, name, len);
	L.SetLinkage(d, ExternalLinkage);
	if (was_local)
		L.SetVisibility(d, HiddenVisibility);
	free(name);
}

/* fn_weight estimates what optimizing and compiling f costs, to balance
   the parts. Measured per kernel on the GPT-2 block (each compiled as a
   part of its own), a kernel's loop costs about the same whatever its
   few dozen instructions (LLVM vectorizes, unrolls and interleaves it,
   then selects the instructions of all that), while straight-line code
   (the entry's checks and calls) costs little an instruction: so an
   instruction is one unit and each loop loopw more (the parts' CPU
   times on the block, by loopw: 0, instructions alone, 53 and 88 ms;
   50, 69 and 76; 150, 68 and 70). A loop is a block
   that starts with a phi and that a branch at or after it (in layout
   order) goes back to, as the code generator's loops are. */
static long fn_weight(Ref f) {
	const long loopw = 150;
	int nb = 0;
	for (Ref bb = L.GetFirstBasicBlock(f); bb; bb = L.GetNextBasicBlock(bb))
		nb++;
	Ref *blocks = zalloc(nb, sizeof(Ref));
	char *phi = zalloc(nb, 1), *header = zalloc(nb, 1);
	long w = 0;
	int b = 0;
	for (Ref bb = L.GetFirstBasicBlock(f); bb; bb = L.GetNextBasicBlock(bb), b++) {
		blocks[b] = L.BasicBlockAsValue(bb);
		Ref first = L.GetFirstInstruction(bb);
		phi[b] = first && L.IsAPHINode(first);
		Ref last = NULL;
		for (Ref in = first; in; in = L.GetNextInstruction(in)) {
			w++;
			last = in;
		}
		if (!last)
			continue;
		int n = L.GetNumOperands(last);
		for (int k = 0; k < n; k++) {
			Ref op = L.GetOperand(last, k);
			for (int t = 0; t <= b; t++)
				if (op == blocks[t] && phi[t])
					header[t] = 1;
		}
	}
	for (b = 0; b < nb; b++)
		w += header[b] ? loopw : 0;
	free(blocks);
	free(phi);
	free(header);
	return w;
}

/* Keeps part `part` of nparts of mod. Returns 1 when split, 0 when the
   module is not split (nothing changed). */
static int split(Ref mod, int nparts, int part) {
	if (L.GetFirstGlobalAlias(mod) || L.GetFirstGlobalIFunc(mod))
		return 0;
	graph g = {0};
	for (Ref f = L.GetFirstFunction(mod); f; f = L.GetNextFunction(f)) {
		if (L.IsDeclaration(f))
			continue;
		int lk = L.GetLinkage(f);
		if ((lk != ExternalLinkage && !local(lk)) || L.GetComdat(f))
			return 0;
		g.n++;
	}
	for (Ref v = L.GetFirstGlobal(mod); v; v = L.GetNextGlobal(v)) {
		int lk = L.GetLinkage(v);
		size_t len;
		const char *nm = L.GetValueName2(v, &len);
		int special = len > 5 && memcmp(nm, "llvm.", 5) == 0;
		if ((!special && lk != ExternalLinkage && !local(lk)) || L.GetComdat(v))
			return 0;
	}
	if (nparts < 2 || g.n < 2 * nparts || g.n > (1 << 24))
		return 0;
	g.fn = zalloc(g.n, sizeof(Ref));
	g.parent = zalloc(g.n, sizeof(int));
	g.size = zalloc(g.n, sizeof(long));
	g.inl = zalloc(g.n, 1);
	g.ext = zalloc(g.n, 1);
	int n = 0;
	for (Ref f = L.GetFirstFunction(mod); f; f = L.GetNextFunction(f))
		if (!L.IsDeclaration(f))
			g.fn[n++] = f;
	qsort(g.fn, g.n, sizeof(Ref), cmpref);
	unsigned always = L.GetEnumAttributeKindForName("alwaysinline", 12);
	for (int i = 0; i < g.n; i++) {
		g.parent[i] = i;
		int lk = L.GetLinkage(g.fn[i]);
		g.ext[i] = !local(lk);
		g.inl[i] = local(lk) && L.GetEnumAttributeAtIndex(g.fn[i], FunctionIndex, always) != NULL;
		g.size[i] = fn_weight(g.fn[i]);
	}
	for (int i = 0; i < g.n; i++)
		each_ref(&g, i, join, NULL);
	/* Groups, by size, largest first (ties by the order in the module:
	   the same in every thread, whatever the addresses). */
	long *gsize = zalloc(g.n, sizeof(long));
	int *order = zalloc(g.n, sizeof(int)), ng = 0;
	int *first = zalloc(g.n, sizeof(int)); // per root: its first function in module order
	for (int i = 0; i < g.n; i++)
		first[i] = -1;
	int idx = 0;
	for (Ref f = L.GetFirstFunction(mod); f; f = L.GetNextFunction(f)) {
		if (L.IsDeclaration(f))
			continue;
		int i = find_fn(&g, f);
		if (!g.inl[i]) {
			int r = root(&g, i);
			if (first[r] < 0) {
				first[r] = idx;
				order[ng++] = r;
			}
			gsize[r] += g.size[i];
		}
		idx++;
	}
	for (int a = 1; a < ng; a++) // insertion sort: few groups
		for (int b = a; b > 0; b--) {
			int x = order[b - 1], y = order[b];
			if (gsize[y] > gsize[x] || (gsize[y] == gsize[x] && first[y] < first[x])) {
				order[b - 1] = y;
				order[b] = x;
			} else
				break;
		}
	long *load = zalloc(nparts, sizeof(long));
	int *gpart = zalloc(g.n, sizeof(int));
	for (int k = 0; k < ng; k++) {
		int best = 0;
		for (int p = 1; p < nparts; p++)
			if (load[p] < load[best])
				best = p;
		gpart[order[k]] = best;
		load[best] += gsize[order[k]];
	}
	crossing c = {zalloc(g.n, sizeof(int)), zalloc(g.n, 1)};
	for (int i = 0; i < g.n; i++)
		c.part[i] = g.inl[i] ? -1 : gpart[root(&g, i)];
	for (int i = 0; i < g.n; i++)
		each_ref(&g, i, mark_cross, &c);
	// A function a variable's initializer names (llvm.global_dtors, a
	// table) is referenced from part 0 or from every part.
	for (Ref v = L.GetFirstGlobal(mod); v; v = L.GetNextGlobal(v))
		if (!L.IsDeclaration(v))
			operand_refs(&g, L.GetInitializer(v), -1, 0, mark_cross, &c);
	int ok = 1;
	for (int p = 0; p < nparts; p++)
		ok = ok && load[p] > 0;
	if (ok) {
		for (int i = 0; i < g.n; i++) {
			if (c.part[i] < 0)
				continue;
			if (c.part[i] != part)
				declare(mod, g.fn[i], 1);
			else if (c.cross[i] && local(L.GetLinkage(g.fn[i]))) {
				L.SetLinkage(g.fn[i], ExternalLinkage);
				L.SetVisibility(g.fn[i], HiddenVisibility);
			}
		}
		Ref next;
		for (Ref v = L.GetFirstGlobal(mod); v; v = next) {
			next = L.GetNextGlobal(v);
			size_t len;
			const char *nm = L.GetValueName2(v, &len);
			int lk = L.GetLinkage(v);
			if (len > 5 && memcmp(nm, "llvm.", 5) == 0) {
				if (part != 0)
					L.DeleteGlobal(v);
				continue;
			}
			if (L.IsDeclaration(v) || (local(lk) && L.IsGlobalConstant(v)))
				continue; // a copy in every part
			if (part != 0)
				declare(mod, v, 0);
			else if (local(lk)) {
				L.SetLinkage(v, ExternalLinkage);
				L.SetVisibility(v, HiddenVisibility);
			}
		}
	}
	free(c.part);
	free(c.cross);
	free(load);
	free(gpart);
	free(gsize);
	free(order);
	free(first);
	free(g.fn);
	free(g.parent);
	free(g.size);
	free(g.inl);
	free(g.ext);
	return ok;
}

// stela_llvm_compile: what `opt -O<level>` then `llc -O<level>
// -filetype=obj -relocation-model=pic` do, in this thread, in a context
// of its own, to part `part` of nparts of the module (split above). With
// bcpath, the optimized module is also written there as bitcode (what
// opt would write). On success *obj (malloc'd, *objlen bytes) is the object
// file; on failure *err (malloc'd) says which step failed.
int stela_llvm_compile(const char *ll, size_t lllen, const char *cpu, const char *features,
		       int level, int nparts, int part, const char *bcpath, char **obj, size_t *objlen, char **err) {
	*obj = NULL;
	*objlen = 0;
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
	if (nparts > 1 && !split(mod, nparts, part) && part > 0) {
		ok = 1; // not split: part 0 is the whole module
		goto done;
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
	if (bcpath && L.WriteBitcodeToFile(mod, bcpath) != 0) {
		*err = take(NULL, "writing the optimized module");
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
