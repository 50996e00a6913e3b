package gpu_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoGCRule checks docs/architecture.md's rule for vkx.NoGC ("Calling Vulkan") over the
// project's Go code (tests aside): a vulkan-go call that takes a slice of structs, whose C copy a
// collection can free while the driver still reads it, runs inside vkx.NoGC (or is made in C by
// internal/vkx); and every vkx.NoGC holds such a call, so that no collection is paused for calls that
// are safe without it (one create-info struct, whose nested slices live until its Free; slices of
// handles or numbers, passed through uncopied). Which functions take a slice of structs is read from
// vulkan-go's own source, so a new call is judged as it is written.
func TestNoGCRule(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/vulkan-go/vulkan").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/vulkan-go/vulkan: %v", err)
	}
	slices := sliceOfStructFuncs(t, strings.TrimSpace(string(out)))
	if len(slices) < 20 || slices["CmdPipelineBarrier"] == nil || slices["CmdBindDescriptorSets"] != nil || slices["CreateSampler"] != nil {
		t.Fatalf("reading vulkan-go: %d functions take slices of structs (CmdPipelineBarrier %v, CmdBindDescriptorSets %v, CreateSampler %v)",
			len(slices), slices["CmdPipelineBarrier"], slices["CmdBindDescriptorSets"], slices["CreateSampler"])
	}
	// needs says whether call c of vk.name passes a slice of structs: nil (a count query) is not one.
	needs := func(name string, c *ast.CallExpr) bool {
		for _, i := range slices[name] {
			if i < len(c.Args) {
				if id, ok := c.Args[i].(*ast.Ident); !ok || id.Name != "nil" {
					return true
				}
			}
		}
		return false
	}
	fset := token.NewFileSet()
	calls, guarded := 0, 0
	err = filepath.WalkDir("..", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(filepath.ToSlash(path), "internal/vkx/") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		var walk func(n ast.Node, inNoGC bool)
		walk = func(n ast.Node, inNoGC bool) {
			ast.Inspect(n, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				pkg, name := selector(c.Fun)
				if pkg == "vkx" && name == "NoGC" && len(c.Args) == 1 {
					lit, ok := c.Args[0].(*ast.FuncLit)
					if !ok {
						t.Errorf("%s: vkx.NoGC of something other than a function literal", fset.Position(c.Pos()))
						return true
					}
					guarded++
					found := false
					ast.Inspect(lit.Body, func(n ast.Node) bool {
						if c, ok := n.(*ast.CallExpr); ok {
							if p, f := selector(c.Fun); p == "vk" && needs(f, c) {
								found = true
							}
						}
						return true
					})
					if !found {
						t.Errorf("%s: vkx.NoGC around calls that take no slice of structs (pauses the collector for nothing)", fset.Position(c.Pos()))
					}
					walk(lit.Body, true)
					return false
				}
				if pkg == "vk" && needs(name, c) {
					calls++
					if !inNoGC {
						t.Errorf("%s: vk.%s takes a slice of structs: call it inside vkx.NoGC (set-up) or through internal/vkx (per frame)", fset.Position(c.Pos()), name)
					}
				}
				return true
			})
		}
		walk(f, false)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if guarded == 0 || calls == 0 {
		t.Fatalf("found %d vkx.NoGC and %d calls that need it: the walk saw no code", guarded, calls)
	}
}

// selector is x.Sel of a call's function, or empty strings.
func selector(e ast.Expr) (string, string) {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	x, ok := s.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	return x.Name, s.Sel.Name
}

// sliceOfStructFuncs are vulkan-go's exported functions with a parameter of type []T where T is a
// struct type of the package (its converters copy such slices into finalizer-owned C memory), with
// the indices of those parameters.
func sliceOfStructFuncs(t *testing.T, dir string) map[string][]int {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatalf("parsing vulkan-go: %v", err)
	}
	structs := map[string]bool{}
	var funcs []*ast.FuncDecl
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok {
							if _, ok := ts.Type.(*ast.StructType); ok {
								structs[ts.Name.Name] = true
							}
						}
					}
				case *ast.FuncDecl:
					if d.Recv == nil && d.Name.IsExported() {
						funcs = append(funcs, d)
					}
				}
			}
		}
	}
	found := map[string][]int{}
	for _, fn := range funcs {
		i := 0
		for _, p := range fn.Type.Params.List {
			n := max(len(p.Names), 1)
			if a, ok := p.Type.(*ast.ArrayType); ok && a.Len == nil {
				if id, ok := a.Elt.(*ast.Ident); ok && structs[id.Name] {
					for k := range n {
						found[fn.Name.Name] = append(found[fn.Name.Name], i+k)
					}
				}
			}
			i += n
		}
	}
	return found
}
