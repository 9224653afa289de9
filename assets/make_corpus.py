#!/usr/bin/env python3
"""make_corpus.py — write assets/corpus_zh.txt, the default word2vec training corpus.

Short everyday Chinese sentences, one per line, words separated by spaces (so the file trains
the same whatever segmenter is built in). Words of one class share their contexts: 爱 / 喜欢 /
热爱 take the same objects, 学习 / 读书 the same places and times, 猫 / 狗 the same homes and
habits, 北京 / 上海 the same trips, 苹果 / 香蕉 the same markets. That is what skip-gram can
learn from, and what the learning view shows.

    python3 assets/make_corpus.py [N_SENTENCES] > assets/corpus_zh.txt

The output depends only on N and the fixed seed below.
"""
import random
import sys

SEED = 20240521

PERSON = ["我", "你", "他", "她", "我们", "他们", "妈妈", "爸爸", "老师", "学生", "朋友",
          "哥哥", "姐姐", "弟弟", "妹妹", "同学", "爷爷", "奶奶", "小明", "小红"]
LOVE = ["爱", "喜欢", "热爱"]
STUDY = ["学习", "读书"]
ANIMAL = ["猫", "狗"]
PET_EXTRA = ["兔子", "小鸟"]
CITY = ["北京", "上海", "广州", "深圳", "杭州", "南京", "成都", "西安"]
FRUIT = ["苹果", "香蕉", "橘子", "葡萄", "西瓜", "草莓"]
DRINK = ["茶", "咖啡", "牛奶", "果汁"]
VEHICLE = ["火车", "飞机", "汽车", "高铁"]
TIME = ["今天", "明天", "昨天", "周末", "早上", "晚上", "每天", "下午"]
STUDY_PLACE = ["图书馆", "教室", "家里", "宿舍", "咖啡馆"]
SUBJECT = ["数学", "历史", "音乐", "中文", "英语", "物理", "地理", "美术"]
HOBBY = ["运动", "旅行", "唱歌", "画画", "跑步", "游泳", "看书", "跳舞"]
FRUIT_ADJ = ["很 甜", "很 新鲜", "很 好吃", "很 便宜", "很 大"]
ANIMAL_ADJ = ["很 可爱", "很 聪明", "很 胖", "很 调皮", "很 安静"]
ANIMAL_ACT = ["睡觉", "玩耍", "晒太阳", "跑来跑去", "叫"]
ANIMAL_PLACE = ["院子", "沙发", "门口", "花园", "窝"]
CITY_ADJ = ["很 大", "很 热闹", "很 漂亮", "很 繁华", "很 有名"]
CITY_THING = ["天气", "交通", "美食", "夜景", "地铁"]
MARKET = ["超市", "水果店", "市场", "商店"]
COUNT_FRUIT = ["一些", "几个", "两斤", "一袋", "很多"]
FEELING = ["开心", "高兴", "快乐", "满意"]
DURATION = ["一个 小时", "两个 小时", "半天", "一整天", "三个 小时"]
PLACE_LOVED = ["家乡", "祖国", "生活", "工作", "大自然"]


def c(xs):
    return random.choice(xs)


def two(xs):
    """Two different members of a class."""
    a, b = random.sample(xs, 2)
    return a, b


def love():
    return c(LOVE)


def pet():
    # 猫 and 狗 most of the time; the extra pets keep the class from being just two words
    return c(ANIMAL) if random.random() < 0.85 else c(PET_EXTRA)


TEMPLATES = [
    # loving things: 爱 / 喜欢 / 热爱 share every object class
    lambda: f"{c(PERSON)} {love()} 吃 {c(FRUIT)} 。",
    lambda: f"{c(PERSON)} 很 {love()} 吃 {c(FRUIT)} 。",
    lambda: f"{c(PERSON)} 非常 {love()} 自己 的 {pet()} 。",
    lambda: f"{c(PERSON)} {love()} {c(HOBBY)} 。",
    lambda: f"{c(PERSON)} 从小 就 {love()} {c(HOBBY)} 。",
    lambda: f"{c(PERSON)} {love()} 喝 {c(DRINK)} 。",
    lambda: f"{c(PERSON)} {love()} {c(SUBJECT)} ， 也 {love()} {c(SUBJECT)} 。",
    lambda: f"{c(PERSON)} 一直 很 {love()} {c(PLACE_LOVED)} 。",
    lambda: f"{c(PERSON)} {love()} {c(PERSON)} 。",
    lambda: f"{c(PERSON)} 说 {c(PERSON)} 最 {love()} {c(SUBJECT)} 课 。",
    lambda: f"{c(PERSON)} 不 {love()} 下雨 天 。",
    lambda: f"{c(PERSON)} 真 的 很 {love()} 这 本 书 。",
    # studying: 学习 / 读书 share places, times and durations
    lambda: f"{c(PERSON)} {c(TIME)} 在 {c(STUDY_PLACE)} {c(STUDY)} 。",
    lambda: f"{c(PERSON)} 每天 {c(STUDY)} {c(DURATION)} 。",
    lambda: f"{c(PERSON)} 喜欢 安静 地 {c(STUDY)} 。",
    lambda: f"{c(PERSON)} 正在 认真 {c(STUDY)} 。",
    lambda: f"{c(PERSON)} 吃 完 饭 就 去 {c(STUDY_PLACE)} {c(STUDY)} 了 。",
    lambda: f"考试 快 到 了 ， {c(PERSON)} 努力 {c(STUDY)} 。",
    lambda: f"{c(PERSON)} {c(TIME)} 在 {c(STUDY_PLACE)} 学习 {c(SUBJECT)} 。",
    lambda: f"{c(STUDY)} 让 {c(PERSON)} 很 {c(FEELING)} 。",
    lambda: f"{c(PERSON)} 觉得 {c(STUDY)} 很 有 意思 。",
    # pets: 猫 / 狗 share homes, habits and adjectives
    lambda: f"{c(PERSON)} 家 的 {pet()} {c(ANIMAL_ADJ)} 。",
    lambda: f"{pet()} 在 {c(ANIMAL_PLACE)} 里 {c(ANIMAL_ACT)} 。",
    lambda: f"{c(PERSON)} {c(TIME)} 给 {pet()} 喂 东西 。",
    lambda: f"这 只 {pet()} {c(ANIMAL_ADJ)} 。",
    lambda: f"{c(PERSON)} 养 了 一 只 {pet()} 。",
    lambda: f"{c(PERSON)} 带 着 {pet()} 去 公园 散步 。",
    lambda: f"那 只 小 {pet()} 在 {c(ANIMAL_PLACE)} {c(ANIMAL_ACT)} 。",
    lambda: f"{pet()} 饿 了 ， {c(PERSON)} 给 它 喂 吃 的 。",
    lambda: f"邻居 的 {pet()} 跑 到 {c(ANIMAL_PLACE)} 来 了 。",
    # cities: 北京 / 上海 share trips, work and descriptions
    lambda: f"{c(PERSON)} {c(TIME)} 坐 {c(VEHICLE)} 去 {c(CITY)} 。",
    lambda: f"{c(CITY)} 是 一个 {c(CITY_ADJ)} 的 城市 。",
    lambda: f"{c(PERSON)} 在 {c(CITY)} 工作 。",
    lambda: f"{c(PERSON)} 住 在 {c(CITY)} 。",
    lambda: f"{c(PERSON)} 想 去 {c(CITY)} 旅游 。",
    lambda: "从 {} 到 {} 坐 {} 要 {} 。".format(*two(CITY), c(VEHICLE), c(DURATION)),
    lambda: f"{c(CITY)} 的 {c(CITY_THING)} {c(CITY_ADJ)} 。",
    lambda: "{} 出生 在 {} ， 后来 搬 到 了 {} 。".format(c(PERSON), *two(CITY)),
    lambda: "{} 的 冬天 比 {} 冷 。".format(*two(CITY)),
    lambda: f"{c(PERSON)} 下 个 月 要 出差 去 {c(CITY)} 。",
    # fruit: 苹果 / 香蕉 share markets, amounts and tastes
    lambda: f"{c(PERSON)} 去 {c(MARKET)} 买 了 {c(COUNT_FRUIT)} {c(FRUIT)} 。",
    lambda: f"这些 {c(FRUIT)} {c(FRUIT_ADJ)} 。",
    lambda: f"{c(MARKET)} 的 {c(FRUIT)} {c(FRUIT_ADJ)} 。",
    lambda: f"{c(PERSON)} 每天 早上 吃 一个 {c(FRUIT)} 。",
    lambda: f"桌子 上 放 着 {c(COUNT_FRUIT)} {c(FRUIT)} 。",
    lambda: f"{c(PERSON)} 把 {c(FRUIT)} 洗 干净 了 。",
    lambda: "{} 和 {} 都 是 水果 。".format(*two(FRUIT)),
    lambda: f"{c(PERSON)} 用 {c(FRUIT)} 做 了 果汁 。",
    # everyday filler with the shared function words
    lambda: f"{c(PERSON)} {c(TIME)} 喝 了 一 杯 {c(DRINK)} 。",
    lambda: f"{c(TIME)} 天气 很 好 ， {c(PERSON)} 很 {c(FEELING)} 。",
    lambda: "{} 和 {} 是 好 朋友 。".format(*two(PERSON)),
    lambda: f"{c(PERSON)} {c(TIME)} 去 {c(MARKET)} 买 {c(DRINK)} 。",
    lambda: f"{c(PERSON)} 坐 {c(VEHICLE)} 回 家 。",
]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6000
    random.seed(SEED)
    seen = set()
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        s = c(TEMPLATES)()
        if s in seen:  # variety: no sentence twice
            continue
        seen.add(s)
        out.append(s)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
