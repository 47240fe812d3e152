#ifndef BITS_GLSL
#define BITS_GLSL
uint low_bit(uint x) {
    return x & 1u;
}
#endif
