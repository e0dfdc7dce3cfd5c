# wbt: writeback throttling for Linux 6.12 -- patch series and tooling.
# Run "make help" for the targets.
#
# This file is the harness's one dependency graph.  Every stage is a file
# under work/ with its real inputs as prerequisites, and every script is a
# single step that never runs another stage itself:
#
#   work/deps.stamp                   Debian packages      scripts/deps.sh
#   work/base.stamp                   pinned 6.12 in git   scripts/get-base.sh
#   work/linux.wbt.stamp              patches/series       scripts/apply-series.sh wbt
#   work/linux-base.upstream.stamp    patches/upstream.series  (... upstream)
#   work/build/FLAVOUR/arch/x86/boot/bzImage                   scripts/build-kernel.sh
#   work/initramfs.cpio               guest/, tests/, the applied tree's
#                                     selftests, tools/wbt and document
#
# "make -n TARGET" shows what a target would run.  The stamp scripts
# rewrite a stamp only when its content changes (the package list, the
# pinned version, the applied patches), so a touched input costs one cheap
# re-check and rebuilds nothing after it.  The bzImage targets are remade
# when the applied series, the config fragments or the build script
# change; after editing work/linux by hand, commit, "make export", or run
# scripts/build-kernel.sh directly.  The initramfs script always runs and
# repacks only when a file that goes into the image changed.

SHELL := /bin/bash
S := scripts
W := work

DEPS_STAMP := $(W)/deps.stamp
BASE_STAMP := $(W)/base.stamp
APPLY_WBT := $(W)/linux.wbt.stamp
APPLY_UPSTREAM := $(W)/linux-base.upstream.stamp
INITRAMFS := $(W)/initramfs.cpio
image = $(W)/build/$(1)/arch/x86/boot/bzImage

PATCHES_WBT := $(addprefix patches/,$(shell cat patches/series 2>/dev/null))
PATCHES_UPSTREAM := $(addprefix patches/,$(shell cat patches/upstream.series 2>/dev/null))

# A stamp whose tree is gone is stale: drop it, so the stage is made again.
ifeq ($(wildcard $(W)/linux/.git),)
$(shell rm -f $(BASE_STAMP) $(APPLY_WBT))
endif
ifeq ($(wildcard $(W)/linux-base/.git),)
$(shell rm -f $(APPLY_UPSTREAM))
endif

# make stress checks its duration before it builds anything, -j or not.
ifneq ($(filter stress,$(MAKECMDGOALS)),)
STRESS_ARGS_ERROR := $(shell $(S)/stress.sh --check $(DURATION) 2>&1 >/dev/null)
ifneq ($(STRESS_ARGS_ERROR),)
$(error $(STRESS_ARGS_ERROR))
endif
endif

.PHONY: help deps base apply export verify-series checkpatch build build-upstream build-cand \
	build-debug build-mqoff initramfs vm demo bench stress check check-series \
	series-touched sparse lint deb trace-formats clean distclean FORCE

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

# ---------------------------------------------------------------- stages

$(DEPS_STAMP): $(S)/deps.sh
	@$(S)/deps.sh

$(BASE_STAMP): base.pin $(S)/get-base.sh | $(DEPS_STAMP)
	@$(S)/get-base.sh

$(APPLY_WBT): $(BASE_STAMP) patches/series $(PATCHES_WBT) $(S)/apply-series.sh
	@$(S)/apply-series.sh wbt

$(APPLY_UPSTREAM): $(BASE_STAMP) patches/upstream.series $(PATCHES_UPSTREAM) $(S)/apply-series.sh
	@$(S)/apply-series.sh upstream

KBUILD_INPUTS := configs/vm.config $(S)/build-kernel.sh | $(DEPS_STAMP)

$(call image,wbt): $(APPLY_WBT) configs/wbt.config $(KBUILD_INPUTS)
	@$(S)/build-kernel.sh wbt
	@touch $@

$(call image,upstream): $(APPLY_UPSTREAM) configs/upstream.config $(KBUILD_INPUTS)
	@$(S)/build-kernel.sh upstream
	@touch $@

$(call image,debug): $(APPLY_WBT) configs/wbt.config configs/debug.config $(KBUILD_INPUTS)
	@$(S)/build-kernel.sh debug
	@touch $@

$(call image,nohooks): $(APPLY_WBT) configs/wbt.config configs/nohooks.config $(KBUILD_INPUTS)
	@$(S)/build-kernel.sh nohooks
	@touch $@

$(call image,mqoff): $(APPLY_WBT) configs/wbt.config configs/mqoff.config $(KBUILD_INPUTS)
	@$(S)/build-kernel.sh mqoff
	@touch $@

$(call image,upstream-mqoff): $(APPLY_UPSTREAM) configs/upstream.config configs/mqoff.config $(KBUILD_INPUTS)
	@$(S)/build-kernel.sh upstream-mqoff
	@touch $@

# The seed's t/read-to-pipe-async (W8), for the guest: Debian's fio has none.
RTPA := work/bench/read-to-pipe-async
$(RTPA): bench/tools/read-to-pipe-async.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	gcc -O2 -Wall -Wextra -pthread -o $@ $<

$(INITRAMFS): $(APPLY_WBT) FORCE | $(DEPS_STAMP)
	@$(S)/mkinitramfs.sh

FORCE:

# ---------------------------------------------------------------- targets

deps: $(DEPS_STAMP) ## install the Debian packages the harness needs

base: $(BASE_STAMP) ## get, check and import the pinned linux-source-6.12

apply: $(APPLY_WBT) $(APPLY_UPSTREAM) ## apply patches/ to the base with git am (work/linux, branch wbt)

export: ## write work/linux's commits back to patches/
	@$(S)/export-series.sh

verify-series: $(APPLY_WBT) ## check that patches/ and work/linux agree
	@$(S)/verify-series.sh

checkpatch: $(APPLY_WBT) ## checkpatch.pl --strict on every patch
	@$(S)/checkpatch-series.sh

build: $(call image,wbt) ## build the patched VM kernel

build-upstream: $(call image,upstream) ## build the unpatched 6.12 VM kernel (benchmark baseline)

build-debug: $(call image,debug) ## build the patched debug kernel (lockdep, KASAN, ...)
build-cand: $(APPLY_WBT) $(KBUILD_INPUTS) ## build work/linux-cand, a change under measurement (bench CONFIGS=...,cand)
	@$(S)/build-kernel.sh cand

build-mqoff: $(call image,mqoff) $(call image,upstream-mqoff) ## build both kernels with CONFIG_BLK_WBT_MQ=n, patched and 6.12

deb: $(APPLY_WBT) ## Debian packages for real hardware -> work/deb/ [CONFIG=distro|vm, DEB_STEP=config]
	@DEB_STEP=$(DEB_STEP) $(S)/deb.sh $(or $(CONFIG),distro)

initramfs: $(INITRAMFS) ## build the guest initramfs from Debian packages

vm: $(call image,wbt) $(INITRAMFS) ## run CMD in the guest: make vm CMD='cat /proc/version' [DISKS='virtio nvme']
	@$(S)/vm-run.sh $(foreach d,$(DISKS),-d $(d)) -- $(if $(CMD),$(CMD),/guest/smoke.sh)

demo: $(call image,wbt) $(INITRAMFS) ## build, boot and show writeback throttling at work
	@$(S)/demo.sh
	@$(S)/bench.sh --demo

bench: $(call image,wbt) $(call image,upstream) $(call image,nohooks) $(RTPA) $(INITRAMFS) ## benchmark suite vs none and upstream [QUICK=1: W1 only, minutes]
	@QUICK=$(QUICK) $(S)/bench.sh

stress: $(call image,debug) $(INITRAMFS) ## soak on the debug kernel [DURATION=600 seconds of guest time]
	@$(S)/stress.sh $(DURATION)

series-touched: $(call image,wbt)
	@$(S)/build-series.sh --touched

sparse: $(call image,wbt)
	@$(S)/sparse-series.sh

check-series: $(call image,wbt) $(INITRAMFS) ## build and boot every patch: wbt_lat_usec is there and throttles
	@$(S)/build-series.sh --boot

trace-formats: $(call image,upstream) $(INITRAMFS) ## re-read 6.12's wbt trace event formats into tests/trace-formats/6.12/
	@$(S)/trace-formats.sh --update
check: $(DEPS_STAMP) ## run every test; last line: N passed, N failed, N skipped
	@$(S)/check.sh

lint: $(DEPS_STAMP) ## shellcheck the project's scripts
	@ONLY=lint $(S)/check.sh

clean: ## remove build outputs and logs, keep the base tree and ccache
	rm -rf work/build work/logs work/check work/check-series work/initramfs work/initramfs.cpio*

distclean: ## remove everything under work/
	rm -rf work
