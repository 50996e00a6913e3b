// Package stream owns a stream of pictures on the GPU, for every consumer (the player, the engine
// texture, the benchmark). Configure decides the frame Plan (decide: the path through ycbcr.Choose,
// the route of hardware-decoded pictures, the upload, the conversion variant, each with its reason)
// and its Pictures (images and bindings, made with the stream's conversion paths, ycbcr.Paths, its
// own or shared through Options.Paths) are a pool that frames take (Begin, or Take and BeginPicture
// for a caller that stages ahead or hands pictures on: Hold, Release, Options.Textures); the Ring
// of slots holds each frame's command buffer, fence and semaphore and retires what a frame used
// (decoded frames, import holds, replaced images and conversions) on the fence of the last
// submission that used it, so nothing waits for the device except Close. Locked is the AVVkFrame
// protocol (libavutil/hwcontext_vulkan.h) for pictures in FFmpeg's images, written once; a Relay
// copies such pictures from another device of the GPU into images both devices bind. Replay
// submits a hardware-decoded picture's frame from commands recorded once per picture and decoder
// image (Options.Replay, Prerecord: a wall's steps then make no Vulkan call per tile). On an
// engine's device (Options.QueueLock, Borrowed) it submits under the engine's queue lock and waits
// only on its own fences.
package stream
