# The benchmarks of docs/performance.md on the H200, in one command.
#
# Run from a folder holding the stripped gpu_bench and native-bench
# (renamed `native`) binaries, glslangValidator, spirv-val and
# masked_select.py, next to `.gl/` with the Vulkan loader's .deb files (see
# docs/conformance.md). Tables are also written under $OUT when it is set.
set -u
out=${OUT:-.}
for f in ../.gl/*.deb; do dpkg -x "$f" /; done
ldconfig
chmod +x ./*
export PATH=$PWD:$PATH
j=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e $j ] && export VK_DRIVER_FILES=$j
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 60 ./gpu_bench copy 2>&1 | tee "$out/copy.txt"
timeout 300 ./gpu_bench all 2>&1 | tee "$out/gpu_bench.txt"
timeout 120 ./gpu_bench probe 2>&1 | tee "$out/probe.txt"
PYTHONUNBUFFERED=1 timeout 120 python3 masked_select.py 2>&1 | tee "$out/torch.txt"
grep -m1 "model name" /proc/cpuinfo
nproc
timeout 200 ./native --bench --noplot 2>&1 | grep -E "^native|thrpt" | tee "$out/native.txt"
