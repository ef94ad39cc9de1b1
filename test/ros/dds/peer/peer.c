/*
 * A ROS 2 peer written against Cyclone DDS's C API and idlc-generated types only: it reads
 * rt/cmd_vel (geometry_msgs/TwistStamped) and rt/camera/image_raw (sensor_msgs/Image), prints
 * what it got, then publishes a std_msgs/String on rt/peer/chatter that names the values it
 * received, for one second after it has seen both (or until its deadline).
 * With the mode "cmd_vel" it answers as soon as it has seen /cmd_vel alone ("peer saw cmd_vel
 * x=... wz=... frame=..."), and keeps answering every 20 ms until its deadline, so a reader that
 * joins late (a `topic echo` started from the command line) still gets one.
 * Usage: peer <domain id> <deadline seconds> [cmd_vel]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "ros_types.h"

int main(int argc, char **argv)
{
  if (argc < 3 || (argc > 3 && strcmp(argv[3], "cmd_vel") != 0)) { fprintf(stderr, "usage: peer <domain> <seconds> [cmd_vel]\n"); return 2; }
  int cmd_only = argc > 3;
  dds_domainid_t domain = (dds_domainid_t) atoi(argv[1]);
  dds_time_t deadline = dds_time() + DDS_SECS(atoi(argv[2]));
  dds_entity_t pp = dds_create_participant(domain, NULL, NULL);
  if (pp < 0) { fprintf(stderr, "participant: %s\n", dds_strretcode(pp)); return 1; }
  dds_entity_t t_cmd = dds_create_topic(pp, &geometry_msgs_msg_dds__TwistStamped__desc, "rt/cmd_vel", NULL, NULL);
  dds_entity_t t_img = dds_create_topic(pp, &sensor_msgs_msg_dds__Image__desc, "rt/camera/image_raw", NULL, NULL);
  dds_entity_t t_str = dds_create_topic(pp, &std_msgs_msg_dds__String__desc, "rt/peer/chatter", NULL, NULL);
  dds_qos_t *rq = dds_create_qos();
  dds_qset_reliability(rq, DDS_RELIABILITY_BEST_EFFORT, 0);
  dds_entity_t r_cmd = dds_create_reader(pp, t_cmd, rq, NULL);
  dds_entity_t r_img = dds_create_reader(pp, t_img, rq, NULL);
  dds_delete_qos(rq);
  dds_entity_t w_str = dds_create_writer(pp, t_str, NULL, NULL);
  if (t_cmd < 0 || t_img < 0 || t_str < 0 || r_cmd < 0 || r_img < 0 || w_str < 0) { fprintf(stderr, "entities failed\n"); return 1; }
  printf("peer ready domain=%u\n", (unsigned) domain);
  fflush(stdout);

  int have_cmd = 0, have_img = 0;
  double cmd_x = 0.0, cmd_wz = 0.0;
  char cmd_frame[64] = "", img_enc[32] = "";
  unsigned img_w = 0, img_h = 0, img_sum = 0, img_len = 0;
  char text[256];
  dds_time_t stop = deadline;
  while (dds_time() < stop) {
    void *samples[1] = { NULL };
    dds_sample_info_t si[1];
    int n = dds_take(r_cmd, samples, si, 1, 1);
    if (n > 0 && si[0].valid_data) {
      const geometry_msgs_msg_dds__TwistStamped_ *m = samples[0];
      cmd_x = m->twist.linear.x; cmd_wz = m->twist.angular.z;
      snprintf(cmd_frame, sizeof cmd_frame, "%s", m->header.frame_id ? m->header.frame_id : "");
      if (!have_cmd) { printf("cmd_vel x=%.3f wz=%.3f frame=%s sec=%d\n", cmd_x, cmd_wz, cmd_frame, m->header.stamp.sec); fflush(stdout); }
      have_cmd = 1;
    }
    if (n > 0) dds_return_loan(r_cmd, samples, n);
    samples[0] = NULL;
    n = dds_take(r_img, samples, si, 1, 1);
    if (n > 0 && si[0].valid_data) {
      const sensor_msgs_msg_dds__Image_ *m = samples[0];
      img_w = m->width; img_h = m->height; img_len = m->data._length; img_sum = 0;
      for (uint32_t i = 0; i < m->data._length; i++) img_sum = (img_sum * 31u + m->data._buffer[i]) & 0xffffffu;
      snprintf(img_enc, sizeof img_enc, "%s", m->encoding ? m->encoding : "");
      if (!have_img) { printf("image %ux%u %s bytes=%u sum=%u\n", img_w, img_h, img_enc, img_len, img_sum); fflush(stdout); }
      have_img = 1;
    }
    if (n > 0) dds_return_loan(r_img, samples, n);
    if (cmd_only && have_cmd) {
      snprintf(text, sizeof text, "peer saw cmd_vel x=%.3f wz=%.3f frame=%s", cmd_x, cmd_wz, cmd_frame);
      std_msgs_msg_dds__String_ s = { .data = text };
      dds_write(w_str, &s);
    } else if (have_cmd && have_img) {
      snprintf(text, sizeof text, "peer saw cmd_vel x=%.3f wz=%.3f frame=%s image %ux%u %s bytes=%u sum=%u",
               cmd_x, cmd_wz, cmd_frame, img_w, img_h, img_enc, img_len, img_sum);
      std_msgs_msg_dds__String_ s = { .data = text };
      dds_write(w_str, &s);
      if (stop == deadline) stop = dds_time() + DDS_SECS(1);
    }
    dds_sleepfor(DDS_MSECS(20));
  }
  dds_delete(pp);
  return have_cmd && (cmd_only || have_img) ? 0 : 3;
}
