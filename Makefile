# Image URL to use all building/pushing image targets
IMG ?= ghcr.io/invoicing-dev/invoicing:latest

# Get the currently used golang install path (in GOPATH/bin, unless GOBIN is set)
ifeq (,$(shell go env GOBIN))
GOBIN=$(shell go env GOPATH)/bin
else
GOBIN=$(shell go env GOBIN)
endif

# Setting SHELL to bash allows bash commands to be executed by recipes.
# Options are set to exit when a recipe line exits non-zero or a piped command fails.
SHELL = /usr/bin/env bash -o pipefail
.SHELLFLAGS = -ec

.PHONY: all
all: build

##@ General

.PHONY: help
help: ## Display this help.
	@awk 'BEGIN {FS = ":.*##"; printf "\nUsage:\n  make \033[36m<target>\033[0m\n"} /^[a-zA-Z_0-9-]+:.*?##/ { printf "  \033[36m%-18s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) } ' $(MAKEFILE_LIST)

##@ Development

.PHONY: manifests
manifests: controller-gen kustomize ## Generate ClusterRole and CustomResourceDefinition objects.
	"$(CONTROLLER_GEN)" crd paths="./api/..." output:crd:artifacts:config=config/crd/bases
	"$(CONTROLLER_GEN)" rbac:roleName=manager-role paths="./internal/manager/...;./internal/adapter/httpapi/..." output:rbac:artifacts:config=config/rbac
	"$(KUSTOMIZE)" build config/default | go run ./hack/chartcrds dist/chart/templates/crd

.PHONY: generate
generate: controller-gen ## Generate code containing DeepCopy, DeepCopyInto, and DeepCopyObject method implementations.
	"$(CONTROLLER_GEN)" object:headerFile="hack/boilerplate.go.txt" paths="./..."

.PHONY: argocd-cm
argocd-cm: ## Render the Argo CD health checks (config/argocd/<group>/<kind>/health.lua) into config/argocd/argocd-cm.yaml.
	go test ./internal/test/argocdhealth -run '^TestTheArgoCDConfigMapSnippetHoldsEveryScriptVerbatim$$' -update

.PHONY: verify-generated
verify-generated: controller-gen kustomize ## Fail when `make manifests generate` or `go mod tidy` would change a file.
	CONTROLLER_GEN="$(CONTROLLER_GEN)" hack/verify-generated.sh

.PHONY: fmt
fmt: ## Run go fmt against code.
	go fmt ./...

.PHONY: vet
vet: ## Run go vet against code.
	go vet ./...

.PHONY: lint
lint: golangci-lint ## Run golangci-lint linter (gofmt, go vet and the linters listed in .golangci.yml).
	"$(GOLANGCI_LINT)" run

.PHONY: lint-fix
lint-fix: golangci-lint ## Run golangci-lint linter and perform fixes.
	"$(GOLANGCI_LINT)" run --fix

# test-unit runs every test that needs no control plane: with -short each
# envtest suite skips itself (internal/test/testenv), and the rest runs in
# well under a minute once the build cache is warm.
.PHONY: test-unit
test-unit: ## Run the tests that need no control plane (go test -short ./...): the fast inner loop.
	go test -short ./...

# The envtest suites start the kube-apiserver and etcd under $(ENVTEST_ASSETS);
# with KUBEBUILDER_ASSETS set, a suite whose binaries are missing fails.
# go test runs one package at a time (-p 1): each envtest suite starts its own
# control plane, and two of them at once on a 2-core machine only time out.
# The coverage printed merges the test binaries' profile with what the
# binaries that test/e2e builds and runs (manager, adapter, localenv) covered.
E2E_COVERDIR = $(CURDIR)/cover/e2e
.PHONY: test
test: verify-generated vet lint test-rules envtest-binaries einvoice-validators typedclient ## Verify generated files, lint, check the alerts, then run unit and envtest suites with coverage.
	rm -rf "$(E2E_COVERDIR)" && mkdir -p "$(E2E_COVERDIR)"
	KUBEBUILDER_ASSETS="$(ENVTEST_ASSETS)" E2E_COVERDIR="$(E2E_COVERDIR)" \
		go test -p 1 -race -timeout 30m ./... -coverprofile cover/unit.out -covermode atomic
	rm -f cover/e2e.out && touch cover/e2e.out
	go tool covdata textfmt -i "$(E2E_COVERDIR)" -o cover/e2e.out
	{ cat cover/unit.out; tail -n +2 cover/e2e.out; } > cover.out
	@echo "Coverage by package (unit, envtest and e2e together):"
	@hack/coverage-summary.sh cover.out
	go tool cover -func cover.out | tail -n 1

# test-rules checks the PrometheusRule's alerts (config/prometheus/alerts.yaml)
# and runs their promtool tests (alerts_test.yaml). promtool reads plain rule
# files: the PrometheusRule's spec, its last key, is one once unindented.
RULES_DIR = $(LOCALBIN)/rules
.PHONY: test-rules
test-rules: promtool ## Check the Prometheus alerts and run their promtool tests.
	@mkdir -p "$(RULES_DIR)"
	sed -n '/^spec:$$/,$$p' config/prometheus/alerts.yaml | tail -n +2 | sed 's/^  //' > "$(RULES_DIR)/alerts.rules.yaml"
	cp config/prometheus/alerts_test.yaml "$(RULES_DIR)/alerts_test.yaml"
	"$(PROMTOOL)" check rules "$(RULES_DIR)/alerts.rules.yaml"
	"$(PROMTOOL)" test rules "$(RULES_DIR)/alerts_test.yaml"

.PHONY: test-e2e
test-e2e: envtest-binaries ## Run the end-to-end suite: the install (config/default) and make run, with the real binaries.
	KUBEBUILDER_ASSETS="$(ENVTEST_ASSETS)" go test ./test/e2e/ -v -ginkgo.v -timeout 20m

.PHONY: test-fuzz
test-fuzz: ## Run one fuzz target (FUZZ: FuzzDecode, FuzzCursor or FuzzIdempotencyKey) for FUZZTIME (default 60s).
	go test ./internal/adapter/httpapi -run '^$$' -fuzz '^$(FUZZ)$$' -fuzztime $(FUZZTIME)
FUZZ ?= FuzzDecode
FUZZTIME ?= 60s

# bench starts a control plane, the manager and the adapter, and measures
# them side by side with the Kubernetes API (docs/performance.md): a table,
# and bin/bench/report.json with CPU profiles next to it. BENCH_SMALL=1 is the
# 1,000-invoice smoke variant that make test also runs (test/bench).
# BENCH_ONLY=memory,restart runs only those measurements (numbers or names:
# memory, restart, sealing, schedules);
# BENCH_ONLY=million builds and measures an installation of a million
# invoices (about an hour; never part of a full run; make test runs it at
# 10,000 invoices);
# BENCH_ARGS passes more flags (e.g. --memory-invoices 100000
# --restart-sizes 100000,200000, the defaults).
BENCH_SMALL ?=
BENCH_ONLY ?=
BENCH_ARGS ?=
.PHONY: bench
bench: envtest-binaries ## Measure adapter and controller against the Kubernetes API (BENCH_SMALL=1: smoke size).
	go build -o bin/manager ./cmd
	go build -o bin/adapter ./cmd/adapter
	go run ./test/bench --assets "$(ENVTEST_ASSETS)" --crds config/crd/bases \
		--manager bin/manager --adapter bin/adapter --out bin/bench $(if $(BENCH_SMALL),--small) \
		$(if $(BENCH_ONLY),--only $(BENCH_ONLY)) $(BENCH_ARGS)

.PHONY: bench-micro
bench-micro: envtest-binaries ## Run the Go micro-benchmarks of the hot paths, with allocations.
	KUBEBUILDER_ASSETS="$(ENVTEST_ASSETS)" go test -p 1 -run '^$$' -bench . -benchmem ./...

# invoice-images renders the invoices of config/samples, issued as the
# controller issues them (internal/document/pictures_test.go), as the
# pictures in docs/: each PDF's page with pdftoppm (poppler-utils) and each
# HTML page with headless Chromium, which runs without its sandbox so that
# it also works as root; it opens only the pages just written. It records
# what they were drawn from in docs/invoice-images.sum, which a unit test
# holds to config/samples. CHROMIUM names another binary (chromium-browser).
CHROMIUM ?= chromium
INVOICE_IMAGES = invoice invoice-tax invoice-reverse-charge invoice-de invoice-fr
.PHONY: invoice-images
invoice-images: ## Render the sample invoices as the PDF and HTML pictures in docs/ (needs pdftoppm and chromium).
	dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT; \
	DOCUMENT_SAMPLES_DIR="$$dir" go test -count=1 -run '^TestWriteTheSampleDocuments$$' ./internal/document/ && \
	for f in $(INVOICE_IMAGES); do \
		pdftoppm -png -r 110 -singlefile "$$dir/$$f.pdf" "docs/$$f-pdf" && \
		"$(CHROMIUM)" --headless --no-sandbox --hide-scrollbars --window-size=900,1000 \
			--screenshot="$(CURDIR)/docs/$$f-html.png" "file://$$dir/$$f.html" 2>/dev/null || exit 1; \
	done && \
	cp "$$dir/invoice-images.sum" docs/invoice-images.sum

##@ Build

.PHONY: build
build: manifests generate ## Build the manager and adapter binaries.
	go build -o "$(LOCALBIN)/manager" ./cmd
	go build -o "$(LOCALBIN)/adapter" ./cmd/adapter

# run starts a local control plane (the same kube-apiserver, etcd and
# kube-controller-manager the tests use, data kept under STATE_DIR), applies
# config/local (CRDs and RBAC), then runs the controller manager, the HTTP
# adapter and Mailpit (the mail catcher: SMTP on MAIL_SMTP_ADDR, its web view
# on MAIL_WEB_ADDR, messages kept until it stops) until Ctrl-C. Every port it
# binds is one of the variables below (the API server and etcd take free
# ports of their own), so a second make run with other values and another
# STATE_DIR runs beside the first (docs/development.md#make-run). The recipe
# execs localenv, so that make's SIGTERM reaches it; make passes SIGINT on to
# no one, so localenv watches make (--stop-with-make).
API_ADDR ?= 127.0.0.1:8080
MANAGER_PROBE_ADDR ?= 127.0.0.1:8081
MANAGER_METRICS_ADDR ?= 0
ADAPTER_METRICS_ADDR ?= 0
MAIL_SMTP_ADDR ?= 127.0.0.1:1025
MAIL_WEB_ADDR ?= 127.0.0.1:8025
STATE_DIR ?= .local
.PHONY: run
run: envtest-binaries build mailpit ## Run the controller, the adapter and a mail catcher on a local control plane (no cluster needed).
	go build -o "$(LOCALBIN)/localenv" ./cmd/localenv
	exec "$(LOCALBIN)/localenv" --stop-with-make --assets "$(ENVTEST_ASSETS)" --state-dir "$(STATE_DIR)" \
		--install config/local --samples config/samples \
		--manager "$(LOCALBIN)/manager" --adapter "$(LOCALBIN)/adapter" --api-addr "$(API_ADDR)" \
		--probe-addr "$(MANAGER_PROBE_ADDR)" --manager-metrics-addr "$(MANAGER_METRICS_ADDR)" \
		--adapter-metrics-addr "$(ADAPTER_METRICS_ADDR)" \
		--mailpit "$(MAILPIT)" --mail-smtp-addr "$(MAIL_SMTP_ADDR)" --mail-web-addr "$(MAIL_WEB_ADDR)"

# Verifies every workspace's chain of LedgerSeals in the cluster kubectl
# points at, from the seals' YAML alone (cmd/verifyseals, docs/ledger.md#checking-the-chain).
# Against make run: make verify-seals KUBECONFIG=.local/kubeconfig (STATE_DIR/kubeconfig)
.PHONY: verify-seals
verify-seals: ## Verify the hash chain of every workspace's seals (kubectl get seals -A -o yaml | cmd/verifyseals).
	"$(KUBECTL)" get seals -A -o yaml > "$${TMPDIR:-/tmp}/invoicing-seals.yaml"
	go run ./cmd/verifyseals -f "$${TMPDIR:-/tmp}/invoicing-seals.yaml"

.PHONY: docker-build
docker-build: ## Build docker image with the manager and the adapter.
	$(CONTAINER_TOOL) build -t ${IMG} .

.PHONY: docker-push
docker-push: ## Push docker image with the manager and the adapter.
	$(CONTAINER_TOOL) push ${IMG}
CONTAINER_TOOL ?= docker

.PHONY: build-installer
build-installer: manifests generate kustomize ## Render one YAML with the CRDs and the whole install (dist/install.yaml) for IMG.
	mkdir -p dist
	cd config/manager && "$(KUSTOMIZE)" edit set image controller=${IMG}
	"$(KUSTOMIZE)" build config/default > dist/install.yaml
	@echo "Wrote dist/install.yaml for image ${IMG}"

##@ Deployment

ifndef ignore-not-found
  ignore-not-found = false
endif

.PHONY: install
install: manifests kustomize ## Install CRDs into the K8s cluster specified in ~/.kube/config.
	"$(KUSTOMIZE)" build config/crd | "$(KUBECTL)" apply --server-side -f -

# Deleting the CRDs deletes every customer and every invoice in the cluster,
# so uninstall refuses unless CONFIRM_DELETE_INVOICES=yes (docs/gitops.md).
.PHONY: uninstall
uninstall: confirm-delete-invoices manifests kustomize ## Delete the CRDs and with them EVERY customer and invoice (needs CONFIRM_DELETE_INVOICES=yes).
	"$(KUSTOMIZE)" build config/crd | "$(KUBECTL)" delete --ignore-not-found=$(ignore-not-found) -f -

.PHONY: confirm-delete-invoices
confirm-delete-invoices:
	@if [ "$(CONFIRM_DELETE_INVOICES)" != "yes" ]; then \
		echo "make uninstall deletes the CRDs, and with them every customer and every invoice in the cluster."; \
		echo "Back them up first (docs/gitops.md), then run: make uninstall CONFIRM_DELETE_INVOICES=yes"; \
		exit 1; \
	fi

.PHONY: deploy
deploy: manifests kustomize ## Deploy controller and adapter to the K8s cluster specified in ~/.kube/config.
	cd config/manager && "$(KUSTOMIZE)" edit set image controller=${IMG}
	"$(KUSTOMIZE)" build config/default | "$(KUBECTL)" apply --server-side -f -

# undeploy deletes what deploy applied except the objects labelled
# invoicing.dev/keep=true: the CRDs, so every customer and invoice stays
# (make uninstall deletes them).
.PHONY: undeploy
undeploy: kustomize ## Undeploy the controller and adapter; the CRDs, customers and invoices stay.
	"$(KUSTOMIZE)" build config/default | "$(KUBECTL)" delete --ignore-not-found=$(ignore-not-found) --selector 'invoicing.dev/keep!=true' -f -

##@ Dependencies

## Location to install dependencies to
LOCALBIN ?= $(shell pwd)/bin
$(LOCALBIN):
	mkdir -p "$(LOCALBIN)"

## Tool Binaries
# The deployment targets use the kubectl on PATH, else the one built into bin/k8s.
KUBECTL ?= $(or $(shell command -v kubectl 2>/dev/null),$(ENVTEST_ASSETS)/kubectl)
KUSTOMIZE ?= $(LOCALBIN)/kustomize
CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen
GOLANGCI_LINT = $(LOCALBIN)/golangci-lint
SETUP_ENVTEST ?= $(LOCALBIN)/setup-envtest
HELM ?= $(LOCALBIN)/helm
KUBEBUILDER ?= $(LOCALBIN)/kubebuilder
PROMTOOL ?= $(LOCALBIN)/promtool

## Tool Versions
KUSTOMIZE_VERSION ?= v5.8.1
CONTROLLER_TOOLS_VERSION ?= v0.21.0
GOLANGCI_LINT_VERSION ?= v2.15.0
# setup-envtest of the controller-runtime release in go.mod.
SETUP_ENVTEST_VERSION ?= v0.24.1
HELM_VERSION ?= v4.3.1
KUBEBUILDER_VERSION ?= v4.15.0
# promtool's version is pinned in hack/promtool/go.mod (Prometheus v3.15.0 is
# module version v0.315.0); keep PROMTOOL_VERSION the same.
PROMTOOL_VERSION ?= v0.315.0

## Control plane for the envtest suites and make run, in $(ENVTEST_ASSETS).
## kube-apiserver, etcd and kubectl come from controller-runtime's setup-envtest
## download when it answers within ENVTEST_DOWNLOAD_TIMEOUT seconds, else they
## are built from Go modules (hack/tools/go.mod must require the same versions):
## the download bucket is not reachable from every build machine, the Go module
## proxy is. kube-controller-manager is not in the download; it is always built.
KUBERNETES_VERSION ?= v1.36.3
ETCD_VERSION ?= v3.6.16
ENVTEST_ASSETS ?= $(LOCALBIN)/k8s/$(KUBERNETES_VERSION)-etcd-$(ETCD_VERSION)
ENVTEST_DOWNLOAD_TIMEOUT ?= 60
K8S_LDFLAGS = -s -w \
	-X k8s.io/component-base/version.gitVersion=$(KUBERNETES_VERSION) \
	-X k8s.io/component-base/version.gitMajor=$(word 1,$(subst ., ,$(patsubst v%,%,$(KUBERNETES_VERSION)))) \
	-X k8s.io/component-base/version.gitMinor=$(word 2,$(subst ., ,$(KUBERNETES_VERSION))) \
	-X k8s.io/component-base/version.gitTreeState=clean \
	-X k8s.io/client-go/pkg/version.gitVersion=$(KUBERNETES_VERSION)

.PHONY: envtest-binaries
envtest-binaries: $(ENVTEST_ASSETS)/kube-apiserver $(ENVTEST_ASSETS)/etcd $(ENVTEST_ASSETS)/kubectl $(ENVTEST_ASSETS)/kube-controller-manager ## Download (setup-envtest) or else build kube-apiserver, etcd, kubectl; build kube-controller-manager; into bin/k8s (cached).

# test/e2e and make run start kube-controller-manager's clusterrole-aggregation
# controller, so that the shipped viewer and editor roles really aggregate
# into the built-in view and edit roles, as in a cluster.
$(ENVTEST_ASSETS)/kube-controller-manager: hack/tools/go.mod hack/tools/go.sum
	@mkdir -p "$(ENVTEST_ASSETS)"
	@echo "Building kube-controller-manager $(KUBERNETES_VERSION) from Go modules (it is not in the envtest download; first time only, a few minutes)"
	cd hack/tools && go build -trimpath -ldflags "$(K8S_LDFLAGS)" -o "$@" k8s.io/kubernetes/cmd/kube-controller-manager

$(ENVTEST_ASSETS)/kube-apiserver $(ENVTEST_ASSETS)/kubectl $(ENVTEST_ASSETS)/etcd &: hack/tools/go.mod hack/tools/go.sum | $(SETUP_ENVTEST)
	@mkdir -p "$(ENVTEST_ASSETS)"
	@if hack/envtest-download.sh "$(SETUP_ENVTEST)" "$(KUBERNETES_VERSION)" "$(ENVTEST_ASSETS)" "$(ENVTEST_DOWNLOAD_TIMEOUT)"; then \
		touch "$(ENVTEST_ASSETS)/kube-apiserver" "$(ENVTEST_ASSETS)/kubectl" "$(ENVTEST_ASSETS)/etcd"; \
	else \
		$(MAKE) --no-print-directory envtest-build; \
	fi

# envtest-build builds kube-apiserver, kubectl and etcd from Go modules; make
# envtest-binaries runs it when the setup-envtest download is unreachable.
.PHONY: envtest-build
envtest-build:
	@grep -q "k8s.io/kubernetes $(KUBERNETES_VERSION)$$" hack/tools/go.mod || { echo "hack/tools/go.mod does not require k8s.io/kubernetes $(KUBERNETES_VERSION)"; exit 1; }
	@grep -q "go.etcd.io/etcd/server/v3 $(ETCD_VERSION)$$" hack/tools/go.mod || { echo "hack/tools/go.mod does not require go.etcd.io/etcd/server/v3 $(ETCD_VERSION)"; exit 1; }
	@mkdir -p "$(ENVTEST_ASSETS)"
	cd hack/tools && go build -trimpath -ldflags "$(K8S_LDFLAGS)" -o "$(ENVTEST_ASSETS)/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
	cd hack/tools && go build -trimpath -ldflags "$(K8S_LDFLAGS)" -o "$(ENVTEST_ASSETS)/kubectl" k8s.io/kubernetes/cmd/kubectl
	cd hack/tools && go build -trimpath -ldflags "-s -w" -o "$(ENVTEST_ASSETS)/etcd" go.etcd.io/etcd/server/v3
	@touch "$(ENVTEST_ASSETS)/kube-apiserver" "$(ENVTEST_ASSETS)/kubectl" "$(ENVTEST_ASSETS)/etcd"

.PHONY: setup-envtest
setup-envtest: $(SETUP_ENVTEST) ## Download setup-envtest locally if necessary.
$(SETUP_ENVTEST): $(LOCALBIN)
	$(call go-install-tool,$(SETUP_ENVTEST),sigs.k8s.io/controller-runtime/tools/setup-envtest,$(SETUP_ENVTEST_VERSION))
# The e-invoice validators (internal/test/schematron): SaxonJS (npm xslt3)
# runs the Schematron rules compiled to XSLT, libxml2 built to WebAssembly
# (npm xmllint-wasm) the XML Schemas; both need node. Each stylesheet under
# internal/test/schematron/testdata is compiled once to a SaxonJS SEF in
# bin/einvoice-sef, under its versioned path. qpdf built to WebAssembly
# (npm @neslinesli93/qpdf-wasm) runs `qpdf --check` on the Factur-X PDFs
# (internal/test/pdfcheck), where no qpdf is installed.
XSLT3_VERSION ?= 2.7.0
XMLLINT_WASM_VERSION ?= 5.3.0
QPDF_WASM_VERSION ?= 0.3.0
XMLTOOLS ?= $(LOCALBIN)/xmltools
XMLTOOLS_DIR = $(XMLTOOLS)-xslt3-$(XSLT3_VERSION)-xmllint-wasm-$(XMLLINT_WASM_VERSION)-qpdf-wasm-$(QPDF_WASM_VERSION)
EINVOICE_RULES = internal/test/schematron/testdata
EINVOICE_SEF = $(LOCALBIN)/einvoice-sef
EINVOICE_STYLESHEETS = $(patsubst $(EINVOICE_RULES)/%.xslt,$(EINVOICE_SEF)/%.sef.json,$(wildcard $(EINVOICE_RULES)/*/*.xslt))
# Schematron published as .sch (Peppol, XRechnung) is compiled to XSLT first,
# with SchXslt (vendored under testdata too). A schema that others include
# (XRechnung's common.sch) is not compiled on its own.
EINVOICE_SCHEMATRON = peppol-bis-3.0.19/PEPPOL-EN16931-UBL peppol-bis-3.0.19/PEPPOL-EN16931-CII \
	xrechnung-schematron-2.5.0/ubl/XRechnung-UBL-validation xrechnung-schematron-2.5.0/cii/XRechnung-CII-validation
SCHXSLT = $(EINVOICE_RULES)/schxslt-1.10.1/pipeline-for-svrl.xsl
.PHONY: einvoice-validators
einvoice-validators: xmltools $(EINVOICE_STYLESHEETS) $(patsubst %,$(EINVOICE_SEF)/%.sch.sef.json,$(EINVOICE_SCHEMATRON)) ## Install the e-invoice validators (xslt3, xmllint-wasm, qpdf-wasm) into bin/ and compile the Schematron stylesheets (cached).
.PHONY: xmltools
xmltools: $(XMLTOOLS_DIR)/node_modules/.bin/xslt3
	@ln -sfn "$(XMLTOOLS_DIR)" "$(XMLTOOLS)"
$(XMLTOOLS_DIR)/node_modules/.bin/xslt3: | $(LOCALBIN)
	npm install --prefix "$(XMLTOOLS_DIR)" --no-audit --no-fund --no-save \
		"xslt3@$(XSLT3_VERSION)" "xmllint-wasm@$(XMLLINT_WASM_VERSION)" "@neslinesli93/qpdf-wasm@$(QPDF_WASM_VERSION)"
$(EINVOICE_SEF)/%.sef.json: $(EINVOICE_RULES)/%.xslt | xmltools
	@mkdir -p "$(dir $@)"
	@echo "Compiling $< (once; about a minute)"
	"$(XMLTOOLS_DIR)/node_modules/.bin/xslt3" -xsl:"$<" -export:"$@.tmp" -nogo -relocate:on
	mv "$@.tmp" "$@"
$(EINVOICE_SEF)/%.sch.sef.json: $(EINVOICE_RULES)/%.sch $(wildcard $(EINVOICE_RULES)/*/*.sch) | xmltools
	@mkdir -p "$(dir $@)"
	@echo "Compiling $< with SchXslt, then to SEF (once; about a minute)"
	"$(XMLTOOLS_DIR)/node_modules/.bin/xslt3" -xsl:"$(SCHXSLT)" -s:"$<" -o:"$@.xslt"
	"$(XMLTOOLS_DIR)/node_modules/.bin/xslt3" -xsl:"$@.xslt" -export:"$@.tmp" -nogo -relocate:on
	mv "$@.tmp" "$@" && rm -f "$@.xslt"

# promtool cannot be go-installed (prometheus's go.mod has a replace
# directive), so it is built from the module hack/promtool pins.
.PHONY: promtool
promtool: $(PROMTOOL)-$(PROMTOOL_VERSION) ## Build promtool into bin/ if necessary.
	@ln -sf "$(PROMTOOL)-$(PROMTOOL_VERSION)" "$(PROMTOOL)"
$(PROMTOOL)-$(PROMTOOL_VERSION): hack/promtool/go.mod hack/promtool/go.sum | $(LOCALBIN)
	@grep -qE "github.com/prometheus/prometheus $(PROMTOOL_VERSION)( |$$)" hack/promtool/go.mod || { echo "hack/promtool/go.mod does not require github.com/prometheus/prometheus $(PROMTOOL_VERSION)"; exit 1; }
	@echo "Building promtool $(PROMTOOL_VERSION) (first time only, a few minutes)"
	cd hack/promtool && go build -trimpath -ldflags "-s -w" -o "$@" github.com/prometheus/prometheus/cmd/promtool

# The typed client check (internal/adapter/httpapi/typedclient_test.go):
# openapi-typescript generates types from the served OpenAPI document, and
# tsc type-checks test/typedclient/client.ts against them through
# openapi-fetch; all three need node.
OPENAPI_TYPESCRIPT_VERSION ?= 7.13.0
OPENAPI_FETCH_VERSION ?= 0.17.0
TYPESCRIPT_VERSION ?= 5.9.3
TYPEDCLIENT ?= $(LOCALBIN)/typedclient
TYPEDCLIENT_DIR = $(TYPEDCLIENT)-openapi-typescript-$(OPENAPI_TYPESCRIPT_VERSION)-openapi-fetch-$(OPENAPI_FETCH_VERSION)-typescript-$(TYPESCRIPT_VERSION)
.PHONY: typedclient
typedclient: $(TYPEDCLIENT_DIR)/node_modules/.bin/tsc ## Install openapi-typescript, openapi-fetch and typescript into bin/ (cached).
	@ln -sfn "$(notdir $(TYPEDCLIENT_DIR))" "$(TYPEDCLIENT)"
$(TYPEDCLIENT_DIR)/node_modules/.bin/tsc: | $(LOCALBIN)
	npm install --prefix "$(TYPEDCLIENT_DIR)" --no-audit --no-fund --no-save \
		"openapi-typescript@$(OPENAPI_TYPESCRIPT_VERSION)" "openapi-fetch@$(OPENAPI_FETCH_VERSION)" "typescript@$(TYPESCRIPT_VERSION)"

# Mailpit, the mail catcher of make run (SMTP and a web view of the
# messages received), built from its Go module at MAILPIT_VERSION. The
# module lacks the web UI's bundle, so hack/build-mailpit.sh bundles it
# first from the module's own package-lock.json with npm (node and npm are
# needed, as for make test).
MAILPIT_VERSION ?= v1.33.1
MAILPIT ?= $(LOCALBIN)/mailpit
.PHONY: mailpit
mailpit: $(MAILPIT)-$(MAILPIT_VERSION) ## Build Mailpit (the mail catcher of make run) with its web UI into bin/ (cached).
	@ln -sf "$(MAILPIT)-$(MAILPIT_VERSION)" "$(MAILPIT)"
$(MAILPIT)-$(MAILPIT_VERSION): hack/build-mailpit.sh | $(LOCALBIN)
	@echo "Building Mailpit $(MAILPIT_VERSION) with its web UI (first time only, about a minute)"
	hack/build-mailpit.sh "$(MAILPIT_VERSION)" "$@"

.PHONY: kustomize
kustomize: $(KUSTOMIZE) ## Download kustomize locally if necessary.
$(KUSTOMIZE): $(LOCALBIN)
	$(call go-install-tool,$(KUSTOMIZE),sigs.k8s.io/kustomize/kustomize/v5,$(KUSTOMIZE_VERSION))

.PHONY: controller-gen
controller-gen: $(CONTROLLER_GEN) ## Download controller-gen locally if necessary.
$(CONTROLLER_GEN): $(LOCALBIN)
	$(call go-install-tool,$(CONTROLLER_GEN),sigs.k8s.io/controller-tools/cmd/controller-gen,$(CONTROLLER_TOOLS_VERSION))

.PHONY: helm
helm: $(HELM) ## Download helm locally if necessary.
$(HELM): $(LOCALBIN)
	$(call go-install-tool,$(HELM),helm.sh/helm/v4/cmd/helm,$(HELM_VERSION))

.PHONY: kubebuilder
kubebuilder: $(KUBEBUILDER) ## Download kubebuilder locally if necessary (its helm/v2-alpha plugin generates dist/chart).
$(KUBEBUILDER): $(LOCALBIN)
	$(call go-install-tool,$(KUBEBUILDER),sigs.k8s.io/kubebuilder/v4,$(KUBEBUILDER_VERSION))

.PHONY: golangci-lint
golangci-lint: $(GOLANGCI_LINT) ## Build golangci-lint with kube-api-linter locally if necessary.
# golangci-lint is built with the kube-api-linter module plugin
# (hack/golangci-lint, whose go.mod pins both), as `golangci-lint custom`
# would build it, but without cloning golangci-lint from GitHub.
$(GOLANGCI_LINT): hack/golangci-lint/go.mod hack/golangci-lint/go.sum hack/golangci-lint/main.go | $(LOCALBIN)
	@grep -q "github.com/golangci/golangci-lint/v2 $(GOLANGCI_LINT_VERSION)$$" hack/golangci-lint/go.mod || { echo "hack/golangci-lint/go.mod does not require golangci-lint $(GOLANGCI_LINT_VERSION)"; exit 1; }
	@echo "Building golangci-lint $(GOLANGCI_LINT_VERSION) with kube-api-linter from Go modules (hack/golangci-lint)"
	rm -f "$(GOLANGCI_LINT)"
	cd hack/golangci-lint && go build -o "$(GOLANGCI_LINT)" .

# go-install-tool will 'go install' any package with custom target and name of binary, if it doesn't exist
# $1 - target path with name of binary
# $2 - package url which can be installed
# $3 - specific version of package
define go-install-tool
@[ -f "$(1)-$(3)" ] && [ "$$(readlink -- "$(1)" 2>/dev/null)" = "$(1)-$(3)" ] || { \
set -e; \
package=$(2)@$(3) ;\
echo "Downloading $${package}" ;\
rm -f "$(1)" ;\
GOBIN="$(LOCALBIN)" go install $${package} ;\
mv "$(LOCALBIN)/$$(basename "$(1)")" "$(1)-$(3)" ;\
} ;\
ln -sf "$$(realpath "$(1)-$(3)")" "$(1)"
endef

##@ Helm

## The chart in dist/chart is generated from config/ by kubebuilder's
## helm/v2-alpha plugin (kubebuilder edit --plugins=helm/v2-alpha), then
## reviewed; make helm-verify (and make test, test/gitops) checks that it
## renders what config/default renders.
## Namespace to deploy the Helm release
HELM_NAMESPACE ?= invoicing-system
## Name of the Helm release
HELM_RELEASE ?= invoicing
## Path to the Helm chart directory
HELM_CHART_DIR ?= dist/chart
## Additional arguments to pass to helm commands
HELM_EXTRA_ARGS ?=

# The plugin renders make build-installer's dist/install.yaml into templates.
# It rewrites the templates: re-apply the reviewed changes that
# docs/gitops.md lists (make helm-verify shows what differs).
.PHONY: helm-chart
helm-chart: kubebuilder ## Regenerate dist/chart from config/ with kubebuilder's helm/v2-alpha plugin.
	"$(KUBEBUILDER)" edit --plugins=helm/v2-alpha --force

.PHONY: helm-verify
helm-verify: helm envtest-binaries ## Lint the chart and check that its default values render what config/default renders.
	KUBEBUILDER_ASSETS="$(ENVTEST_ASSETS)" HELM="$(HELM)" go test ./test/gitops -run 'Helm' -count=1

.PHONY: helm-deploy
helm-deploy: helm ## Deploy the controller and adapter with Helm. Specify an image with IMG.
	IMG="$(IMG)"; "$(HELM)" upgrade --install $(HELM_RELEASE) $(HELM_CHART_DIR) \
		--namespace $(HELM_NAMESPACE) \
		--create-namespace \
		--set manager.image.repository=$${IMG%:*} \
		--set manager.image.tag=$${IMG##*:} \
		--wait \
		--timeout 5m \
		$(HELM_EXTRA_ARGS)

.PHONY: helm-uninstall
helm-uninstall: helm ## Uninstall the Helm release; the CRDs, customers and invoices stay (helm.sh/resource-policy: keep).
	"$(HELM)" uninstall $(HELM_RELEASE) --namespace $(HELM_NAMESPACE)

.PHONY: helm-status
helm-status: helm ## Show Helm release status.
	"$(HELM)" status $(HELM_RELEASE) --namespace $(HELM_NAMESPACE)

.PHONY: helm-history
helm-history: helm ## Show Helm release history.
	"$(HELM)" history $(HELM_RELEASE) --namespace $(HELM_NAMESPACE)

.PHONY: helm-rollback
helm-rollback: helm ## Rollback to previous Helm release.
	"$(HELM)" rollback $(HELM_RELEASE) --namespace $(HELM_NAMESPACE)
