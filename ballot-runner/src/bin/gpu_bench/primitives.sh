# The device-wide primitives' figures of docs/performance.md on the H200,
# in one command: the layout probe with its profile of the phases, the
# compaction and scan tables (with the bandwidth limit), the PyTorch
# anchors, and the plot with its table of every figure against the limit.
#
# Run from a folder holding the stripped gpu_bench, glslangValidator,
# spirv-val, masked_select.py and plot.py, next to `.gl/` with the Vulkan
# loader's .deb files (as h200.sh). Everything is also written under $OUT
# when it is set.
set -u
out=${OUT:-.}
for f in ../.gl/*.deb; do dpkg -x "$f" /; done
ldconfig
chmod +x ./gpu_bench ./glslangValidator ./spirv-val
export PATH=$PWD:$PATH
j=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e $j ] && export VK_DRIVER_FILES=$j
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 ./gpu_bench tiles 2>&1 | tee "$out/tiles.txt"
timeout 330 ./gpu_bench compaction 2>&1 | tee "$out/compaction.txt"
PYTHONUNBUFFERED=1 timeout 150 python3 masked_select.py 2>&1 | tee "$out/torch.txt"
python3 plot.py "$out/primitives-h200.png" "$out/compaction.txt" "$out/torch.txt" \
    2>&1 | tee "$out/limit-table.md"
