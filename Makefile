# wbt: writeback throttling for Linux 6.12 -- patch series and tooling.
# Run "make help" for the targets.

SHELL := /bin/bash
S := scripts

.PHONY: help deps base apply export verify-series checkpatch build build-upstream \
	build-debug initramfs vm demo bench stress check check-series lint clean distclean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

deps: ## install the Debian packages the harness needs
	@$(S)/deps.sh

base: deps ## get, check and import the pinned linux-source-6.12
	@$(S)/get-base.sh

apply: base ## apply patches/ to the base with git am (work/linux, branch wbt)
	@$(S)/apply-series.sh

export: ## write work/linux's commits back to patches/
	@$(S)/export-series.sh

verify-series: ## check that patches/ and work/linux agree
	@$(S)/verify-series.sh

checkpatch: apply ## checkpatch.pl --strict on every patch
	@$(S)/checkpatch-series.sh

build: apply ## build the patched VM kernel
	@$(S)/build-kernel.sh wbt

build-upstream: base ## build the unpatched 6.12 VM kernel (benchmark baseline)
	@$(S)/build-kernel.sh upstream

build-debug: apply ## build the patched debug kernel (lockdep, KASAN, ...)
	@$(S)/build-kernel.sh debug

.PHONY: deb
deb: ## Debian packages for real hardware -> work/deb/ [CONFIG=distro|vm, DEB_STEP=config]
	@DEB_STEP=$(DEB_STEP) $(S)/deb.sh $(or $(CONFIG),distro)

initramfs: deps ## build the guest initramfs from Debian packages
	@$(S)/mkinitramfs.sh

vm: build initramfs ## run CMD in the guest: make vm CMD='cat /proc/version' [DISKS='virtio nvme']
	@$(S)/vm-run.sh $(foreach d,$(DISKS),-d $(d)) -- $(if $(CMD),$(CMD),/guest/smoke.sh)

demo: build initramfs ## build, boot and show writeback throttling at work
	@$(S)/demo.sh

bench: build build-upstream initramfs ## benchmark suite vs none and upstream [QUICK=1: W1 only, minutes]
	@QUICK=$(QUICK) $(S)/bench.sh

stress: apply initramfs ## soak on the debug kernel [DURATION=600 seconds of guest time]
	@$(S)/stress.sh $(DURATION)

check: deps ## run every test; last line: N passed, N failed, N skipped
	@$(S)/check.sh

check-series: apply ## build every patch of the series in full (slow)
	@$(S)/build-series.sh --full

lint: deps ## shellcheck the project's scripts
	@ONLY=lint $(S)/check.sh

clean: ## remove build outputs and logs, keep the base tree and ccache
	rm -rf work/build work/logs work/check work/initramfs work/initramfs.cpio*

distclean: ## remove everything under work/
	rm -rf work
